import DecibarCore

/// `levels`' own options: rows checked by their kinds, taken only on its command line.
public struct LevelsOptions: SettingsGroup {
    public static let rows = LevelsOptions()
    static let home = CommandLineHome("levels", for: [.levels], elsewhere: "only levels takes it")

    public init() {}

    public let file: Setting<String?> = .text(home, "file", valueName: "path", "Analyze this audio file instead of a live source.")
    public let mode: Setting<LevelsMode> = .choice(home, "mode", default: .levels,
        "levels (RMS and peak per channel), spectrum (band levels), loudness (EBU R128), beats (beat times and tempo) or stereo (phase correlation, balance and width of the first two channels).")
    public let bands: Setting<Int> = .integer(home, "bands", 1...1024, default: 32,
        "Bands per channel in spectrum mode (fewer when low bands must merge to hold an FFT bin).")
    public let format: Setting<LevelsFormat> = .choice(home, "format", default: .json,
        "json (the lines above), waybar (a JSON object for waybar's custom module) or ascii (cava's raw ASCII bars).")
    public let bars: Setting<Int> = .integer(home, "bars", 1...256, default: 8, "Bars of --format waybar and ascii (1 to 256).")
    public let asciiMax: Setting<Int> = .integer(home, "ascii_max", 1...65535, default: 1000,
        "The value of a full bar in --format ascii (cava's ascii_max_range).")
    public let raw: Setting<Bool> = .boolean(home, "raw", "Spectrum: each line's own analysis, without the window's smoothing (floor -160 dB).")
    // The window's spectrum floor's range: the same bars, the same limits.
    public let floor: Setting<Double?> = .number(home, "floor", SpectrumSettings.rows.floor.key.numberRange!, unit: "dB",
        "Spectrum: the level of an empty bar, in dB (default -70, as the window's); smoothed levels stay at or above it.")
    public let standalone: Setting<Bool> = .boolean(home, "standalone",
        "Open a tap of its own even when a daemon runs (by default, live levels come from the running daemon's tap).")
    public let socket: Setting<String?> = .text(home, "socket", valueName: "path",
        "The daemon's socket to subscribe to (default $XDG_RUNTIME_DIR/decibar/control.sock).")
    public let rate: Setting<Double?> = .number(home, "rate", 0.001...1000, unit: "lines per second",
        "Lines per second (of file time with --file); with --send, also what is sent a second (default 60 for it).")
    public let duration: Setting<Double?> = .number(home, "duration", 0.001...Double.greatestFiniteMagnitude, unit: "seconds",
        "Stop after this many seconds (of file time with --file). Default: until interrupted, or the end of the file.")
}

/// What `levels` prints: its JSON lines, or lines for a status bar.
public enum LevelsFormat: String, CaseIterable, Sendable {
    case json
    case waybar
    case ascii
}

extension LevelsOptions {
    /// What the rows' kinds cannot check: options that exclude or need each other.
    public static func check(_ settings: Configuration) throws(CommandFailure) {
        func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
        let (file, socket, standalone) = (settings[rows.file], settings[rows.socket], settings[rows.standalone])
        let (raw, floor, mode) = (settings[rows.raw], settings[rows.floor], settings[rows.mode])
        if standalone && socket != nil { throw usage("--standalone and --socket cannot be used together") }
        let tapOfItsOwn = settings[ConfigSchema.audio.source] != nil || !settings[ConfigSchema.audio.apps].isEmpty
            || !settings[ConfigSchema.audio.excludeApps].isEmpty || settings[ConfigSchema.audio.backend] != .auto
        if socket != nil && tapOfItsOwn {
            throw usage("--socket reads the daemon's tap; --source, --app, --exclude-app and --backend open a tap of their own")
        }
        if file != nil && tapOfItsOwn {
            throw usage("--source, --app, --exclude-app and --backend listen live: they cannot be used with --file")
        }
        if !settings[ConfigSchema.outputs.send].isEmpty && (file != nil || socket != nil) {
            throw usage("--send sends what is heard live from a tap of its own: it cannot be used with --file or --socket")
        }
        if (raw || floor != nil) && mode != .spectrum { throw usage("--raw and --floor apply to --mode spectrum") }
        if raw && floor != nil { throw usage("--raw and --floor cannot be used together: raw levels are not held at a floor") }
        if settings[rows.format] != .json && (mode != .levels || raw || floor != nil) {
            throw usage("--format \(settings[rows.format].rawValue) makes its own bars and levels: it takes no --mode, --raw or --floor")
        }
    }
}
