/// Finds a picker's entries by what is typed: every word of the query somewhere in the name, in
/// any order, case and accents folded; the best matches first. Names are folded once, so a query
/// over thousands of presets is a scan of bytes, well inside a frame.
public struct PickerSearch: Sendable {
    /// Makes text comparable: lower case, accents dropped (the caller's, as folding needs Unicode
    /// tables the core does not carry).
    public typealias Folding = @Sendable (String) -> String

    private let folded: [[UInt8]]
    private let fold: Folding

    public init(names: [String], fold: @escaping Folding) {
        self.fold = fold
        folded = names.map { Array(fold($0).utf8) }
    }

    public var count: Int { folded.count }

    /// The entries matching `query`, best first: a word found at the start of the name ranks above
    /// one at the start of a word, which ranks above one inside a word; then shorter names, then
    /// the list's own order. An empty query keeps every entry in order.
    public func matches(_ query: String) -> [Int] {
        let words = fold(query).split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.utf8) }
        guard !words.isEmpty else { return Array(folded.indices) }
        var found: [(index: Int, rank: Int)] = []
        for (index, name) in folded.enumerated() {
            var rank = 0
            var matched = true
            for word in words {
                guard let place = Self.place(of: word, in: name) else {
                    matched = false
                    break
                }
                rank += place
            }
            if matched { found.append((index, rank)) }
        }
        found.sort { left, right in
            if left.rank != right.rank { return left.rank < right.rank }
            let (leftLength, rightLength) = (folded[left.index].count, folded[right.index].count)
            if leftLength != rightLength { return leftLength < rightLength }
            return left.index < right.index
        }
        return found.map(\.index)
    }

    /// 0 at the start of the name, 1 at the start of a word, 2 inside one; nil when absent.
    static func place(of word: [UInt8], in name: [UInt8]) -> Int? {
        guard word.count <= name.count else { return nil }
        var best: Int?
        var start = 0
        while start + word.count <= name.count {
            if name[start] == word[0] && name[start ..< start + word.count].elementsEqual(word) {
                let place = start == 0 ? 0 : isLetterOrDigit(name[start - 1]) ? 2 : 1
                if place < (best ?? 3) { best = place }
                if place == 0 { break }
            }
            start += 1
        }
        return best
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte >= 0x80
    }
}
