/// The lists a window can open over its picture, in the order Tab moves through them. What
/// choosing in each does is one control command, so a click says what `ctl` would.
public enum PickerKind: String, CaseIterable, Sendable {
    case presets, sources, modes, themes

    /// The list after this one, for Tab.
    public var next: PickerKind {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }

    /// The heading over the list.
    public var title: String {
        switch self {
        case .presets: "Presets"
        case .sources: "Sources"
        case .modes: "Modes"
        case .themes: "Themes"
        }
    }

    /// The commands that choose `value` in this list, as `ctl` would send them.
    public func commands(choosing value: String) -> [ControlCommand] {
        switch self {
        case .presets: [.preset(.named(value))]
        case .sources: Self.sourceCommands(value)
        case .modes: [.mode(.named(value))]
        case .themes: [.set(key: ConfigSchema.display.theme.key.path, value: .string(value))]
        }
    }

    /// A source's value is `app:NAME` (that app alone, wherever it plays), `default` (the default
    /// output), or a device's name (all of it).
    static func sourceCommands(_ value: String) -> [ControlCommand] {
        let (source, apps) = (ConfigSchema.audio.source.key.path, ConfigSchema.audio.apps.key.path)
        if value.hasPrefix(Self.appPrefix) {
            return [.set(key: source, value: .null), .set(key: apps, value: .array([.string(String(value.dropFirst(Self.appPrefix.count)))]))]
        }
        return [.set(key: apps, value: .array([])), .set(key: source, value: value == Self.defaultSource ? .null : .string(value))]
    }

    public static let appPrefix = "app:"
    public static let defaultSource = "default"
}
