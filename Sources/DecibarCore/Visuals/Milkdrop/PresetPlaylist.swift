/// The Milkdrop presets a picture goes through: paths in a stable order (or shuffled from a seed),
/// the one shown, and the user's moves (next, previous, random, by name). Presets that fail to
/// load are dropped from it so that they are not tried again.
public struct PresetPlaylist: Sendable {
    public private(set) var paths: [String]
    public private(set) var index = 0
    private var random: SeededRandom

    /// - Parameter paths: in the order to show them (already sorted); shuffled from `seed` when
    ///   asked. The first shown is chosen by `seed` too (a render's seed chooses its presets).
    public init(paths: [String], shuffled: Bool, seed: UInt64) {
        random = SeededRandom(seed: seed)
        self.paths = shuffled ? paths.shuffledInPlace(using: &random) : paths
        if !paths.isEmpty { index = Int(random.next() % UInt64(paths.count)) }
    }

    public var isEmpty: Bool { paths.isEmpty }

    /// The path shown (nil when the list is empty).
    public var current: String? { paths.isEmpty ? nil : paths[index] }

    /// A preset's name: its file name without `.milk`.
    public static func name(of path: String) -> String {
        var name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        if name.lowercased().hasSuffix(".milk") { name.removeLast(5) }
        return name
    }

    public mutating func next() {
        guard !paths.isEmpty else { return }
        index = (index + 1) % paths.count
    }

    public mutating func previous() {
        guard !paths.isEmpty else { return }
        index = (index + paths.count - 1) % paths.count
    }

    /// Another preset than the one shown, chosen by the seeded generator.
    public mutating func jumpToRandom() {
        guard paths.count > 1 else { return }
        let step = Int.random(in: 1 ..< paths.count, using: &random)
        index = (index + step) % paths.count
    }

    /// Shows the preset named `name` (its file name without .milk, any case; or a path in the
    /// list). False when there is none.
    public mutating func select(named name: String) -> Bool {
        let wanted = name.lowercased()
        let found = paths.firstIndex { $0 == name } ?? paths.firstIndex { Self.name(of: $0).lowercased() == wanted }
        guard let found else { return false }
        index = found
        return true
    }

    /// Adds a preset given by path (shown next by `select`), unless it is in the list already.
    public mutating func insert(path: String) {
        guard !paths.contains(path) else { return }
        paths.insert(path, at: paths.isEmpty ? 0 : index + 1)
    }

    /// Drops the preset shown (it cannot be drawn); the next one takes its place.
    public mutating func removeCurrent() {
        guard !paths.isEmpty else { return }
        paths.remove(at: index)
        if index >= paths.count { index = 0 }
    }
}

extension Array {
    fileprivate func shuffledInPlace(using generator: inout SeededRandom) -> [Element] {
        var copy = self
        // Fisher-Yates written out: the standard library's shuffle may change between releases.
        if copy.count > 1 {
            for position in stride(from: copy.count - 1, to: 0, by: -1) {
                let other = Int(generator.next() % UInt64(position + 1))
                copy.swapAt(position, other)
            }
        }
        return copy
    }
}
