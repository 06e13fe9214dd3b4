/// A config file's `[keys]`: bindings in every context (`[keys]`) or in one (`[keys.player]`),
/// over the defaults; a command of "" unbinds. The commands are checked where they are read.
public struct KeyOverrides: Sendable, Equatable {
    public private(set) var everywhere: [KeyChord: String] = [:]
    public private(set) var perContext: [KeyContext: [KeyChord: String]] = [:]

    public init() {}

    public var isEmpty: Bool { everywhere.isEmpty && perContext.isEmpty }

    public mutating func bind(_ chord: KeyChord, to command: String, in context: KeyContext? = nil) {
        if let context { perContext[context, default: [:]][chord] = command } else { everywhere[chord] = command }
    }

    /// These bindings with `other`'s on top.
    public func merging(_ other: KeyOverrides) -> KeyOverrides {
        var merged = self
        merged.everywhere.merge(other.everywhere) { _, new in new }
        for (context, table) in other.perContext { merged.perContext[context, default: [:]].merge(table) { _, new in new } }
        return merged
    }
}
