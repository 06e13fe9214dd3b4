/// The sections of the config file.
public enum ConfigSection: String, CaseIterable, Sendable {
    case display, audio, player, daemon, outputs

    /// What the section is for, written above it by `config init`.
    public var help: String {
        switch self {
        case .display: "How the window looks and moves: live, play and the daemon's window. (render takes only its command line, so a render is the same on every machine.)"
        case .audio: "What the live window and the daemon listen to."
        case .player: "The player (play, and the daemon's player) and its waveform scrubber."
        case .daemon: "decibar daemon: the service that windows, scripts and status bars share."
        case .outputs: "Where live, levels and the daemon also send what is heard: LED controllers (WLED, DDP), OSC and a web page."
        }
    }

    /// The commands its keys mean something to, unless a key's row says otherwise.
    var scope: SettingScope {
        switch self {
        case .display: .look
        case .audio: .liveSource
        case .player: .player
        case .daemon: .service
        case .outputs: .outputs
        }
    }
}

/// Every key of the config file, section by section, in the order `config init` writes them. The
/// sections are docs/config.md's groups: how it looks (`display`), what it listens to
/// (`audio`), the player and its scrubber (`player`), and the service (`daemon`).
public enum ConfigSchema {
    public static let sections = ConfigSection.allCases.map(\.rawValue)


    /// How the window looks and moves.
    public struct Display: SettingsGroup {
        public init() {}

        public let mode: Setting<VisualMode> = .mode(ConfigSection.display, "mode", default: "bars", inWindow: "m switches at run time.")
        public let bars: Setting<Int?> = .integer(ConfigSection.display, "bars", 1...1024,
            "Number of bars, 1 to 1024 (unset: 48, or as many as fit with bar_width). In spectrum mode half are the left channel's bands and half the right's.")
        public let theme: Setting<String> = .words(ConfigSection.display, "theme", BarTheme.presetNames, default: "neon", for: .picture,
            "Colors: \(BarTheme.presetNames.joined(separator: ", ")).")
        public let barWidth: Setting<Int?> = .integer(ConfigSection.display, "bar_width", 1...512, unit: "pixels",
            "Width of each bar in pixels; bars then fill the window at this width (cava's layout). Unset: the bars share the width.")
        public let barSpacing: Setting<Int?> = .integer(ConfigSection.display, "bar_spacing", 0...512, unit: "pixels", rules: .init(needs: "bar_width"),
            "Gap between bars in pixels, with bar_width (unset: a third of the width).")
        public let orientation: Setting<BarOrientation> = .choice(ConfigSection.display, "orientation", default: .center,
            "Where bars grow from: center, bottom or top. A spectrogram scrolls left (center, bottom) or up (top).")
        public let layout: Setting<BarArrangement> = .choice(ConfigSection.display, "layout", default: .linear,
            "Bars and spectrum: linear (side by side) or radial (around a circle, growing outward; in play and render a track's cover art fills the middle).")
        public let innerRadius: Setting<Double> = .number(ConfigSection.display, "inner_radius", 0.05...0.45, default: 0.12, unit: "factor",
            "Radial layout: where the bars start, as a share of the picture's width (smaller on a picture too short for it).")
        public let radialGap: Setting<Double> = .number(ConfigSection.display, "radial_gap", 0...0.9, default: 0.3, unit: "factor",
            "Radial layout: the share of each bar's slot left empty between bars.")
        public let rotation: Setting<Double> = .number(ConfigSection.display, "rotation", -360...360, default: 0, unit: "degrees",
            "Radial layout: how far the circle is turned clockwise (0: the halves meet at the top and bottom).")
        public let background: Setting<BackgroundStyle> = .choice(ConfigSection.display, "background", default: .opaque, appliesLive: false,
            "opaque (the theme's color), chroma (pure green #00FF00, for keying out in a video editor) or transparent (needs a compositing window manager; screenshots keep the alpha).")
        public let borderless: Setting<Bool> = .boolean(ConfigSection.display, "borderless", for: .window, appliesLive: false,
            "A window without a title bar or frame.")
        public let layer: Setting<DesktopLayer> = .choice(ConfigSection.display, "layer", default: .window, for: .window,
            "window (an ordinary window), or part of the desktop: background (behind every window, a live wallpaper), bottom (below the windows), top (above them) or overlay (above everything). Every layer but window is click-through (keys go through decibar ctl) and has no frame; top and overlay are see-through where the background would be.")
        public let monitor: Setting<String?> = .text(ConfigSection.display, "monitor", valueName: "name", for: .window,
            "The monitor a layer goes on, by its output name (xrandr --listmonitors, swaymsg -t get_outputs). Unset: the primary one (on Wayland, where the compositor puts it).")
        public let anchor: Setting<LayerAnchor> = .choice(ConfigSection.display, "anchor", default: .fill, for: .window,
            "Where a layer goes on its monitor: fill (all of it), or a strip along the top, bottom, left or right edge, height pixels across.")
        public let stripHeight: Setting<Int> = .integer(ConfigSection.display, "height", 1...8192, default: 120, for: .window, unit: "pixels",
            "How thick a layer's strip is (along an anchor edge).")
        public let margin: Setting<Int> = .integer(ConfigSection.display, "margin", 0...4096, default: 0, for: .window, unit: "pixels",
            "Space between a layer and its monitor's edges.")
        public let caps: Setting<Bool> = .boolean(ConfigSection.display, "caps",
            "Peak caps above the bars in bars and spectrum modes: they hold, then fall (hold, fall).")
        public let beatAccent: Setting<Bool> = .boolean(ConfigSection.display, "beat_accent",
            "Bars and spectrum lift a little and flash toward white on each beat, when it is heard (off: the bars follow the level alone).")
        public let hold: Setting<Double> = .number(ConfigSection.display, "hold", 0...60_000, default: 1000, unit: "ms",
            "How long peak caps (and the meter's hold line) hold, in ms.")
        public let fall: Setting<Double> = .number(ConfigSection.display, "fall", 0.001...1000, default: Double(LevelMeter.defaultHoldFallRate), unit: "dB/s",
            "How fast peak caps fall after holding, in dB per second.")
        public let shaderDirectory: Setting<String?> = .text(ConfigSection.display, "shader_dir", valueName: "folder",
            inWindow: "s switches to the next; saving a file reloads it, and one that does not compile shows the compiler's message while the last good one stays.",
            "Draw with your own fragment shaders from this folder: the first *.frag or *.glsl by name (unset: the built-in bars).")
        public let shader: Setting<String?> = .text(ConfigSection.display, "shader", valueName: "file",
            inWindow: "s moves on through the other shaders of its folder; saving the file reloads it.",
            "Draw with this fragment shader (in bars and spectrum modes): one written for Decibar, or one as written on shadertoy.com (mainImage, with iChannel0 the audio texture), unchanged. Takes the place of shader_dir.")
        public let shaderScale: Setting<PictureScale> = .scale(ConfigSection.display, "shader_scale", 0.1...1,
            "Your shader draws at this fraction of the picture's width and height, then is scaled up and sharpened (a shader costs per pixel). auto: in a window it follows the shader's cost, between 1 and 0.25, to keep the display's rate; in render every pixel is drawn.")
        public let size: Setting<PixelSize> = .size(ConfigSection.display, "size", default: (1280, 720), for: .pictureSize,
            "Window size in pixels, WxH (render: the video's; spectrogram: the picture's), or a shape: 16:9 (1920x1080), 9:16 (1080x1920), 1:1 (1080x1080) or 4:5 (1080x1350).")
        public let fullscreen: Setting<Bool> = .boolean(ConfigSection.display, "fullscreen", for: .window,
            "Fullscreen (f switches at run time).")
        public let controller: Setting<ControllerVisibility> = .choice(ConfigSection.display, "osc", default: .auto, for: .window,
            "The on-screen controller, a bar over the bottom of the picture holding the mode, the preset, the source and the theme (and the player's state), each opening a list to choose from: auto shows it while the pointer moves over the window and hides it 1 s after; always keeps it; never. Desktop layers and recordings never show it.")
        public let toasts: Setting<Bool> = .boolean(ConfigSection.display, "toasts", default: true, for: .window,
            "Say a change made by a key, a click or decibar ctl (mode, preset, source, theme, rate) in one line over the picture for a moment.")
        public let fps: Setting<Double?> = .number(ConfigSection.display, "fps", 10...1000, for: .pace, unit: "Hz", appliesLive: false, option: "display-fps",
            "Frames per second of the window (unset: the display's refresh rate; in the terminal, 60). Above the refresh rate, frames come sooner after the sound (lower latency) and the window stops waiting for vertical blank (tearing is possible). The option is --display-fps (render's --fps is the video's rate).")
        public let graphics: Setting<TerminalGraphics> = .choice(ConfigSection.display, "graphics", default: .auto, for: .terminal, appliesLive: false,
            "How decibar term draws: auto (kitty's graphics where the terminal answers that it has them, else sixel where it lists them, else text), kitty or sixel (real pixels from the renderer, any mode), or text (eighth blocks, braille dots and half blocks, in any terminal).")
        public let attack: Setting<Double?> = .number(ConfigSection.display, "attack", 0...60_000, unit: "ms",
            "Rise time constant of the bars in ms (unset: the original 0.9/0.1 per 60 Hz frame, 158 ms).")
        public let release: Setting<Double?> = .number(ConfigSection.display, "release", 0...60_000, unit: "ms",
            "Fall time constant of the bars in ms (unset: 158 ms).")
        public let floor: Setting<Double> = .number(ConfigSection.display, "floor", -160 ... -1.001, default: -60, unit: "dBFS",
            "Level shown as an empty bar, in dBFS (with a fixed sensitivity).")
        public let sensitivity: Setting<Sensitivity> = .sensitivity(ConfigSection.display, "sensitivity", rules: .init(offSwitch: ("no-autosens",
            "No automatic gain on the bars: the plain mapping of --floor...0 dBFS (the same as --sensitivity 0).")),
            "Gain on bars and spectrum: \"auto\" keeps the tallest bars just under the top whatever the music's loudness (and holds in silence); a number fixes it in dB (-40 to 40); \"off\" is the plain mapping of floor...0 dBFS.")
    }

    /// What the live window and the daemon listen to.
    public struct Audio: SettingsGroup {
        public init() {}

        public let source: Setting<String?> = .text(ConfigSection.audio, "source", valueName: "name", appliesLive: false,
            rules: .init(emptyMessage: "--source needs a name (see 'decibar devices')"),
            "Source to listen to, by name (see 'decibar devices'); a sink's name means its monitor. Unset: follow the monitor of the default output.")
        public let apps: Setting<[String]> = .names(ConfigSection.audio, "apps", option: "app", rules: .appNames,
            "Listen only to these apps, by the application.name or application.process.binary of their playback streams, in any case ('decibar devices' lists the apps playing). Their streams are followed from output to output and summed; while none plays the level is silence (-160 dBFS), never another app or the microphone. Repeat --app for more. Empty: the whole output.")
        public let excludeApps: Setting<[String]> = .names(ConfigSection.audio, "exclude_apps", option: "exclude-app", rules: .appNames,
            "Leave these apps out (named as for apps): with apps empty, every other app playing to the output is heard (the default output, or the sink source names). Repeat --exclude-app for more.")
        public let backend: Setting<AudioBackendChoice> = .choice(ConfigSection.audio, "backend", default: .auto, appliesLive: false,
            "How to reach the sound server: pipewire (PipeWire's own protocol: the tap links itself to the output, or to an app's stream before it plays, so its first sample is heard; less work for the server), pulse (libpulse: PulseAudio, or PipeWire through pipewire-pulse) or auto (pipewire when a PipeWire server with audio answers, else pulse).")
        public let avOffset: Setting<Double> = .number(ConfigSection.audio, "av_offset", -5000...5000, default: 0, for: .liveWindow, unit: "ms",
            "Show the audio this much later (or earlier, if negative), in ms, on top of the output's own latency, which is measured from the server and applied by itself.")
    }

    /// The player and its scrubber.
    public struct Player: SettingsGroup {
        public init() {}

        public let loop: Setting<LoopMode> = .choice(ConfigSection.player, "loop", default: LoopMode.none, booleanWords: (.playlist, LoopMode.none),
            "At the end of a track: none (the next one; the window stays open on the last, stopped), track (play it again) or playlist (start the list again after the last). l cycles at run time.")
        public let shuffle: Setting<Bool> = .boolean(ConfigSection.player, "shuffle",
            "Play the list in random order (the track playing first, then each other once); off puts it back in its own order.")
        public let volume: Setting<Double> = .number(ConfigSection.player, "volume", PlayerVolume.range, default: PlayerVolume.defaultPercent, unit: "percent",
            "Volume of the player's stream in percent, as the sound server shows it (100: the file as it is; 9 and 0 step it by 5).")
        public let rate: Setting<Double> = .number(ConfigSection.player, "rate", RateAndPitch.rates, default: 1, unit: "factor",
            "Playback speed, 0.25 to 4 (1: normal), at the same pitch; the playhead stays in the file's time. [ and ] step it by 0.25 at run time, \\ resets it and the pitch.")
        public let pitch: Setting<Double> = .number(ConfigSection.player, "pitch", RateAndPitch.pitches, default: 0, unit: "cents",
            "Pitch shift in cents, -2400 to 2400 (1200: an octave up), at the same speed; { and } step it by 100 at run time.")
        public let scrubber: Setting<ScrubberKind> = .choice(ConfigSection.player, "scrubber", default: .waveform, for: .scrubber,
            "What the scrubber shows of the whole track: waveform or spectrogram (in the display's colormap, computed on its own thread as the waveform is, in at most 8 MiB; a stream shows its waveform).")
        public let scrubberBarWidth: Setting<Int> = .integer(ConfigSection.player, "scrubber_bar_width", 1...64, default: 3, for: .scrubber, unit: "pixels",
            "Width of the scrubber's bars in pixels.")
        public let scrubberBarSpacing: Setting<Int> = .integer(ConfigSection.player, "scrubber_bar_spacing", 0...64, default: 2, for: .scrubber, unit: "pixels",
            "Space between the scrubber's bars in pixels.")
        public let scrubberFilter: Setting<ScrubberFilter> = .choice(ConfigSection.player, "scrubber_filter", default: .max, for: .scrubber,
            "How a scrubber bar sums up the audio under it: max (never hides a peak) or average (smoother).")
        public let decibels: Setting<Bool> = .boolean(ConfigSection.player, "decibels", for: .scrubber, inWindow: "d switches at run time.",
            "Start the scrubber in dB mode.")
        public let noiseFloor: Setting<Double> = .numberChoice(ConfigSection.player, "noise_floor", ScrubberScale.noiseFloors.map(Double.init),
            default: Double(ScrubberScale.defaultNoiseFloor), for: .scrubber, unit: "dB",
            "Noise floor of the scrubber's dB mode: -50, -70 or -90 dB.")
        public let fillIndicator: Setting<Bool> = .boolean(ConfigSection.player, "fill_indicator", for: .scrubber,
            "Show the played part as a filled region instead of a playhead line.")
        public let follow: Setting<ScrubberZoom.Follow> = .choice(ConfigSection.player, "follow", default: .page, for: .scrubbing,
            "How a zoomed scrubber keeps the playhead in sight while playing: page (a page further when it reaches the edge) or smooth (the view slides, the playhead in the middle).")
        public let scrubAudio: Setting<Bool> = .boolean(ConfigSection.player, "scrub_audio", default: true, for: .scrubbing,
            "Hear what the scrubber is dragged over: short grains at the pointer, at the file's own pitch, while the button is held (also from pause); off: the audio pauses while dragging. The release plays from the drop point either way.")
        public let videoLayout: Setting<VideoLayout> = .choice(ConfigSection.player, "video_layout", default: .under, for: .scrubber, appliesLive: false,
            "A video file's picture: under (behind the bars, letterboxed), above (in a panel above the bars) or off (the audio alone).")
        public let streamCacheSize: Setting<Int64> = .byteSize(ConfigSection.player, "stream_cache_size", (16 << 20)...(1 << 40), default: 1 << 30, for: .streams,
            "How much the cache of streamed tracks ($XDG_CACHE_HOME/decibar/streams) may hold, e.g. 500M or 2G; the least recently used go first.")
        public let streamTimeout: Setting<Double> = .number(ConfigSection.player, "stream_timeout", 1...600, default: 10, for: .streams, unit: "seconds",
            "Seconds a server may send nothing (before its answer or in the middle of a track) before a stream counts as failed.")
        public let connectTimeout: Setting<Double> = .number(ConfigSection.player, "connect_timeout", 1...600, default: 10, for: .streams, unit: "seconds",
            "Seconds to wait for a connection to a stream's server.")
        public let streamStart: Setting<Double> = .number(ConfigSection.player, "stream_start", 0.1...1, default: 1, for: .streams, unit: "seconds",
            "Seconds of a stream's audio decoded before it starts playing, and again after the network fell behind (0.1 to 1: the player decodes 1 s ahead).")
    }

    /// The service.
    public struct Daemon: SettingsGroup {
        public init() {}

        public let tap: Setting<String> = .words(ConfigSection.daemon, "tap", ["on-demand", "always"], default: "on-demand",
            "on-demand: listen to the audio only while the window shows or a client subscribes (nothing listens, and no CPU is used, when nothing looks); always: keep listening.")
        public let window: Setting<String> = .words(ConfigSection.daemon, "window", ["hidden", "shown"], default: "hidden", appliesLive: false,
            "Whether the window shows when the daemon starts (decibar ctl show / hide switch it).")
        public let logLevel: Setting<String> = .words(ConfigSection.daemon, "log_level", ["trace", "debug", "info", "notice", "warning", "error", "critical"],
            default: "info", "How much the daemon logs to stderr (the journal, under systemd).")
    }

    /// Where the analysis goes besides the window.
    public struct Outputs: SettingsGroup {
        public init() {}

        public let send: Setting<[OutputTarget]> = .outputs(ConfigSection.outputs, "send", option: "send",
            "Send what is heard, when it is heard, to these outputs: wled:// (WLED audio sync, multicast 239.0.0.1:11988) or wled://HOST[:PORT]; ddp://HOST[:PORT]?pixels=N (the bars on N LEDs); osc://HOST:PORT (OSC, ?prefix=/decibar); http://ADDRESS:PORT (a web page of the bars; ?token=T beyond loopback). Each takes ?offset=MS (-1000 to 1000) for a controller's own delay. Repeat --send for more; decibar ctl set outputs.send changes them live.")
    }

    public static let display = Display()
    public static let audio = Audio()
    public static let player = Player()
    public static let daemon = Daemon()
    public static let outputs = Outputs()

    /// Each section's own rows, collected once.
    private static let sectionKeys = (display: display.keys, audio: audio.keys, player: player.keys, daemon: daemon.keys,
                                      outputs: outputs.keys)

    /// Every key, in the order `config init` writes them: each section's rows as declared, and in
    /// [display] the registered modes' own after the section's.
    public static var keys: [ConfigKey] {
        sectionKeys.display + VisualModes.all.flatMap(\.settings) + sectionKeys.audio + sectionKeys.player + sectionKeys.daemon
            + sectionKeys.outputs
    }

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

extension ConfigKey.OptionRules {
    /// `--app` and `--exclude-app` say the same of an empty name, as they always have.
    fileprivate static let appNames = Self(emptyMessage: "--app and --exclude-app need an app's name (see 'decibar devices')")
}
