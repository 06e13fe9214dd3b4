/// "Did you mean": the closest of some names to a misspelt one.
public enum Spelling {
    /// The name at the smallest edit distance, if it is close enough to be what was meant (at most
    /// a third of its letters wrong).
    public static func closest(to word: String, among names: some Sequence<String>) -> String? {
        let letters = Array(word.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for name in names {
            let distance = editDistance(letters, Array(name.lowercased().utf8))
            if distance < (best?.distance ?? .max) { best = (name, distance) }
        }
        guard let best, best.distance <= max(1, letters.count / 3) else { return nil }
        return best.name
    }

    /// Levenshtein distance (insertions, deletions and substitutions each cost 1).
    public static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0 ... b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1 ... a.count {
            current[0] = i
            for j in 1 ... b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
