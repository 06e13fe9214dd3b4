/// What the visualizer draws, by the name of a mode the catalog registered (`VisualModes`): the
/// modes are not listed here, so a new one is a folder and a line in the catalog.
public struct VisualMode: RawRepresentable, CaseIterable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// A registered mode's name; nil for any other word.
    public init?(rawValue: String) {
        guard VisualModes.description(named: rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    /// A mode by the name it registers under (its own folder's constant).
    public init(registered name: String) { rawValue = name }

    /// Every registered mode, in `m`'s order.
    public static var allCases: [VisualMode] { VisualModes.all.map { VisualMode(registered: $0.name) } }

    public var description: String { rawValue }

    /// What the mode says of itself.
    public var details: VisualModeDescription? { VisualModes.description(named: rawValue) }

    /// The keys it adds while it shows: (chord, command).
    public var keys: [(String, String)] { details?.keys ?? [] }

    /// The mode after this one, for the m key.
    public var next: VisualMode { step(by: 1) }
    public var previous: VisualMode { step(by: -1) }

    private func step(by offset: Int) -> VisualMode {
        let all = Self.allCases
        guard let index = all.firstIndex(of: self), !all.isEmpty else { return all.first ?? self }
        return all[(index + offset + all.count) % all.count]
    }
}
