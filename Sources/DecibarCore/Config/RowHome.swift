/// Where a row of settings lives: a section of the config file (which `ctl set` and the file
/// take), or the command line alone (a command's own options: render's `--fps`, levels' `--bands`),
/// whose rows are checked the same way but are set nowhere else.
public protocol RowHome: Sendable {
    /// The first part of the row's path: `display`, or the command's name.
    var homeName: String { get }
    /// The commands that take its rows unless a row says otherwise.
    var homeScope: SettingScope { get }
    /// Whether its rows are keys of the config file (and of `ctl set`).
    var isInConfigFile: Bool { get }
}

extension ConfigSection: RowHome {
    public var homeName: String { rawValue }
    public var homeScope: SettingScope { scope }
    public var isInConfigFile: Bool { true }
}

/// Options only a command line takes: one command's own, or a few commands' (a window's
/// `--exit-after`), with why the others refuse them.
public struct CommandLineHome: RowHome {
    public let homeName: String
    public let homeScope: SettingScope
    public var isInConfigFile: Bool { false }

    /// Options of `commands`; the others refuse them saying `elsewhere` (or their own reason).
    public init(_ name: String, for commands: Set<SettingCommand>, elsewhere: String, _ exceptions: [SettingCommand: String] = [:]) {
        homeName = name
        homeScope = SettingScope(commands, elsewhere: elsewhere, exceptions)
    }
}

