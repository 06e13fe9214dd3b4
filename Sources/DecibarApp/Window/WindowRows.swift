import DecibarCore

/// What only the command line says of a window (`live` and `play`): when it closes and what it
/// saves. `render` refuses them, saying what it has instead.
public struct WindowRows: SettingsGroup {
    public static let rows = WindowRows()
    static let home = CommandLineHome("window", for: [.live, .play], elsewhere: "there is no window")

    public init() {}

    public let exitAfter: Setting<Double?> = .number(home, "exit_after", 0.001...Double.greatestFiniteMagnitude,
        for: SettingScope([.live, .play], elsewhere: "there is no window", [.render: "use --duration"]), unit: "seconds",
        "Close the window after this many seconds.")
    public let screenshot: Setting<String?> = .text(home, "screenshot", valueName: "path",
        for: SettingScope([.live, .play], elsewhere: "there is no window", [.render: "render to a folder/ for PNG frames"]),
        "When closing, save the last frame as a PNG here.")
    public let record: Setting<String?> = .text(home, "record", valueName: "path",
        for: SettingScope([.live, .play], elsewhere: "there is no window", [.render: "-o is the recording"]),
        "Record what the window shows, with the audio being shown, to this .mp4 (or .mkv, .mov) when the window closes. Needs the ffmpeg program.")
    public let recordFPS: Setting<Int?> = .integer(home, "record_fps", 1...120,
        for: SettingScope([.live, .play], elsewhere: "there is no window", [.render: "--fps is the video's"]),
        "Frames per second of --record, steady whatever the window does (default 30).")
}

extension WindowRows {
    /// What the kinds cannot check: where the window writes (never over `inputs`).
    public static func check(_ settings: Configuration, inputs: [String] = []) throws(CommandFailure) {
        func output(_ path: String?, _ option: String) throws(CommandFailure) {
            guard let path else { return }
            do { try OutputPath.check(path, option: option, kind: .file, inputs: inputs) } catch {
                throw CommandFailure(message: error.description, status: 2)
            }
        }
        try output(settings[rows.screenshot], "--screenshot")
        if let record = settings[rows.record], !["mp4", "mkv", "mov"].contains(OutputPath.fileExtension(of: record)) {
            throw CommandFailure(message: "--record must name an .mp4, .mkv or .mov file", status: 2)
        }
        try output(settings[rows.record], "--record")
    }

    /// The window the configuration describes, with what only the command line says.
    public static func settings(_ configuration: Configuration) -> DisplaySettings {
        var settings = DisplaySettings(configuration: configuration)
        settings.exitAfter = configuration[rows.exitAfter]
        settings.screenshot = configuration[rows.screenshot]
        settings.record = configuration[rows.record]
        if let fps = configuration[rows.recordFPS] { settings.recordFPS = fps }
        return settings
    }
}
