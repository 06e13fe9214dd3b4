/// Every key of the config file, section by section, in the order `config init` writes them. The
/// sections are the README's option groups: how it looks (`display`), what it listens to
/// (`audio`), the player and its scrubber (`player`), and the service (`daemon`).
public enum ConfigSchema {
    public static let sections = ["display", "audio", "player", "daemon"]

    public static let sectionHelp: [String: String] = [
        "display": "How the window looks and moves: live, play and the daemon's window. (render takes only its command line, so a render is the same on every machine.)",
        "audio": "What the live window and the daemon listen to.",
        "player": "The player (play, and the daemon's player) and its waveform scrubber.",
        "daemon": "decibar daemon: the service that windows, scripts and status bars share.",
    ]

    public static let keys: [ConfigKey] = [
        ConfigKey("display", "mode", .choice(VisualMode.allCases.map(\.rawValue)), .string("bars"),
                  "What to draw: bars (symmetric level bars), spectrum (frequency bands, left channel on the left, right on the right) or meter (RMS, peak and loudness per channel). m switches at run time."),
        ConfigKey("display", "bars", .integer(1...1024), nil,
                  "Number of bars, 1 to 1024 (unset: 48, or as many as fit with bar_width). In spectrum mode half are the left channel's bands and half the right's."),
        ConfigKey("display", "theme", .choice(BarTheme.presetNames), .string("neon"),
                  "Colors: \(BarTheme.presetNames.joined(separator: ", "))."),
        ConfigKey("display", "bar_width", .integer(1...512), nil,
                  "Width of each bar in pixels; bars then fill the window at this width (cava's layout). Unset: the bars share the width."),
        ConfigKey("display", "bar_spacing", .integer(0...512), nil,
                  "Gap between bars in pixels, with bar_width (unset: a third of the width)."),
        ConfigKey("display", "orientation", .choice(BarOrientation.allCases.map(\.rawValue)), .string("center"),
                  "Where bars grow from: center, bottom or top."),
        ConfigKey("display", "background", .choice(BackgroundStyle.allCases.map(\.rawValue)), .string("opaque"), appliesLive: false,
                  "opaque (the theme's color), chroma (pure green #00FF00, for keying out in a video editor) or transparent (needs a compositing window manager; screenshots keep the alpha)."),
        ConfigKey("display", "borderless", .boolean, .bool(false), appliesLive: false,
                  "A window without a title bar or frame."),
        ConfigKey("display", "caps", .boolean, .bool(false),
                  "Peak caps above the bars in bars and spectrum modes: they hold, then fall (hold, fall)."),
        ConfigKey("display", "hold", .number(0...60_000), .number(1000),
                  "How long peak caps (and the meter's hold line) hold, in ms."),
        ConfigKey("display", "fall", .number(0.001...1000), .number(Double(LevelMeter.defaultHoldFallRate)),
                  "How fast peak caps fall after holding, in dB per second."),
        ConfigKey("display", "ballistics", .choice(MeterBallistics.allCases.map(\.rawValue)), .string("digital"),
                  "Meter peak bar: digital (falls at 40 dB/s) or iec (IEC 60268-18: 20 dB in 1.7 s)."),
        ConfigKey("display", "meter_scale", .choice(MeterScale.allCases.map(\.rawValue)), .string("dbfs"),
                  "Meter scale: dbfs (-70...0, levels first) or lufs (-59...0 with ticks at the -23 and -14 LUFS targets)."),
        ConfigKey("display", "loudness_targets", .numbers(-59...0), .array([]),
                  "Loudness targets marked on the meter's loudness bars, in LUFS (e.g. [-23, -14]: EBU R128 and streaming)."),
        ConfigKey("display", "spectrum_floor", .number(-160 ... -10), .number(-70),
                  "Spectrum level drawn as an empty bar, in dB (the top is 0 dB)."),
        ConfigKey("display", "lows_at_edges", .boolean, .bool(false),
                  "Spectrum: put the low frequencies at the window's edges instead of the center."),
        ConfigKey("display", "shader_dir", .text, nil,
                  "Draw with your own fragment shaders from this folder (*.frag; s switches between them). Unset: the built-in bars."),
        ConfigKey("display", "size", .size, .string("1280x720"),
                  "Window size in pixels, WxH."),
        ConfigKey("display", "fullscreen", .boolean, .bool(false),
                  "Fullscreen (f switches at run time)."),
        ConfigKey("display", "attack", .number(0...60_000), nil,
                  "Rise time constant of the bars in ms (unset: the original 0.9/0.1 per 60 Hz frame, 158 ms)."),
        ConfigKey("display", "release", .number(0...60_000), nil,
                  "Fall time constant of the bars in ms (unset: 158 ms)."),
        ConfigKey("display", "floor", .number(-160 ... -1.001), .number(-60),
                  "Level shown as an empty bar, in dBFS (with a fixed sensitivity)."),
        ConfigKey("display", "sensitivity", .sensitivity, .string("auto"),
                  "Gain on bars and spectrum: \"auto\" keeps the tallest bars just under the top whatever the music's loudness; a number fixes it in dB (-40 to 40); \"off\" is the plain mapping of floor...0 dBFS."),

        ConfigKey("audio", "source", .text, nil, appliesLive: false,
                  "Source to listen to, by name (see 'decibar devices'); a sink's name means its monitor. Unset: follow the monitor of the default output."),
        ConfigKey("audio", "av_offset", .number(-5000...5000), .number(0),
                  "Show the audio this much later (or earlier, if negative), in ms, on top of the output's own latency."),

        ConfigKey("player", "loop", .choice(LoopMode.allCases.map(\.rawValue)), .string("none"), booleanWords: ("playlist", "none"),
                  "At the end of a track: none (the next one; the window stays open on the last, stopped), track (play it again) or playlist (start the list again after the last). l cycles at run time."),
        ConfigKey("player", "volume", .number(PlayerVolume.range), .number(PlayerVolume.defaultPercent),
                  "Volume of the player's stream in percent, as the sound server shows it (100: the file as it is; 9 and 0 step it by 5)."),
        ConfigKey("player", "rate", .number(RateAndPitch.rates), .number(1),
                  "Playback speed, 0.25 to 4 (1: normal), at the same pitch; [ and ] step it by 0.25 at run time, \\ resets it and the pitch."),
        ConfigKey("player", "pitch", .number(RateAndPitch.pitches), .number(0),
                  "Pitch shift in cents, -2400 to 2400 (1200: an octave up), at the same speed; { and } step it by 100 at run time."),
        ConfigKey("player", "scrubber_bar_width", .integer(1...64), .number(3),
                  "Width of the scrubber's bars in pixels."),
        ConfigKey("player", "scrubber_bar_spacing", .integer(0...64), .number(2),
                  "Space between the scrubber's bars in pixels."),
        ConfigKey("player", "scrubber_filter", .choice(ScrubberFilter.allCases.map(\.rawValue)), .string("max"),
                  "How a scrubber bar sums up the audio under it: max (never hides a peak) or average (smoother)."),
        ConfigKey("player", "decibels", .boolean, .bool(false),
                  "Start the scrubber in dB mode (d switches at run time)."),
        ConfigKey("player", "noise_floor", .numberChoice(ScrubberScale.noiseFloors.map(Double.init)), .number(Double(ScrubberScale.defaultNoiseFloor)),
                  "Noise floor of the scrubber's dB mode: -50, -70 or -90 dB."),
        ConfigKey("player", "fill_indicator", .boolean, .bool(false),
                  "Show the played part as a filled region instead of a playhead line."),
        ConfigKey("player", "video_layout", .choice(VideoLayout.allCases.map(\.rawValue)), .string("under"), appliesLive: false,
                  "A video file's picture: under (behind the bars, letterboxed), above (in a panel above the bars) or off (the audio alone)."),
        ConfigKey("player", "stream_cache_size", .byteSize((16 << 20)...(1 << 40)), .string("1G"),
                  "How much the cache of streamed tracks ($XDG_CACHE_HOME/decibar/streams) may hold; the least recently used go first."),
        ConfigKey("player", "stream_timeout", .number(1...600), .number(10),
                  "Seconds a server may send nothing (before its answer or in the middle of a track) before a stream counts as failed."),
        ConfigKey("player", "connect_timeout", .number(1...600), .number(10),
                  "Seconds to wait for a connection to a stream's server."),
        ConfigKey("player", "stream_start", .number(0.1...1), .number(1),
                  "Seconds of a stream's audio decoded before it starts playing, and again after the network fell behind (0.1 to 1: the player decodes 1 s ahead)."),

        ConfigKey("daemon", "tap", .choice(["on-demand", "always"]), .string("on-demand"),
                  "on-demand: listen to the audio only while the window shows or a client subscribes (nothing listens, and no CPU is used, when nothing looks); always: keep listening."),
        ConfigKey("daemon", "window", .choice(["hidden", "shown"]), .string("hidden"), appliesLive: false,
                  "Whether the window shows when the daemon starts (decibar ctl show / hide switch it)."),
        ConfigKey("daemon", "log_level", .choice(["trace", "debug", "info", "notice", "warning", "error", "critical"]), .string("info"),
                  "How much the daemon logs to stderr (the journal, under systemd)."),
    ]

    /// Finds a key by its path (`display.theme`) or, when that is unique, its name (`theme`).
    public static func key(named name: String) throws(ConfigFailure) -> ConfigKey {
        let wanted = name.lowercased().replacingOccurrencesOfDashes
        if let key = keys.first(where: { $0.path == wanted }) { return key }
        let matches = keys.filter { $0.name == wanted }
        if matches.count == 1 { return matches[0] }
        if matches.count > 1 {
            throw ConfigFailure("\(name.quotedForMessage) is in several sections: say \(matches.map(\.path).joined(separator: " or "))")
        }
        let suggestion = Spelling.closest(to: wanted, among: keys.map(\.path) + keys.map(\.name))
        throw ConfigFailure("no setting \(name.quotedForMessage)" + (suggestion.map { " (did you mean \($0)?)" } ?? ""))
    }

    /// The key named `name` in `section`, or a failure with a suggestion.
    public static func key(section: String, name: String) throws(ConfigFailure) -> ConfigKey {
        if let key = keys.first(where: { $0.section == section && $0.name == name }) { return key }
        let inSection = keys.filter { $0.section == section }.map(\.name)
        let suggestion = Spelling.closest(to: name, among: inSection).map { "\(section).\($0)" }
            ?? Spelling.closest(to: name, among: keys.map(\.name)).flatMap { found in keys.first { $0.name == found }?.path }
        throw ConfigFailure("unknown key \(section).\(name)" + (suggestion.map { " (did you mean \($0)?)" } ?? ""))
    }
}

extension String {
    var replacingOccurrencesOfDashes: String { String(map { $0 == "-" ? "_" : $0 }) }
}
