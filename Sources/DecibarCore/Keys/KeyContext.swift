/// Where a key binding holds: in any window, while the player shows, or while a mode shows (its
/// own keys, such as a preset's n and p). The more particular context wins.
public enum KeyContext: Hashable, Sendable, CustomStringConvertible {
    case window
    case player
    case mode(VisualMode)

    /// How a config file's `[keys.NAME]` and `decibar keys` name it.
    public var description: String {
        switch self {
        case .window: "window"
        case .player: "player"
        case .mode(let mode): mode.rawValue
        }
    }

    /// Reads `window`, `player` or a mode's name.
    public init(parsing name: String) throws(ConfigFailure) {
        switch name {
        case "window": self = .window
        case "player": self = .player
        default:
            guard let mode = VisualMode(rawValue: name) else {
                let names = ["window", "player"] + VisualMode.allCases.map(\.rawValue)
                let suggestion = Spelling.closest(to: name, among: names).map { " (did you mean [keys.\($0)]?)" } ?? ""
                throw ConfigFailure("no key context \(name.quotedForMessage): [keys] holds in every window, [keys.player] while the player shows, [keys.MODE] while a mode shows\(suggestion)")
            }
            self = .mode(mode)
        }
    }
}
