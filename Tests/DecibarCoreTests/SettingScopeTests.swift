import DecibarCore
import Testing

/// Which commands each setting means something to, what their help says of it, and what the
/// others say when given its option.
@Suite("Setting scopes")
struct SettingScopeTests {
    /// The table holds the registered modes' rows: the stand-ins are registered first.
    init() { RegisteredModes.prepare() }

    /// Every row's commands, decided by what each command does with the value.
    static let commands: [String: String] = [
        "display.mode": "live play render daemon term", "display.bars": "live play render daemon term",
        "display.theme": "live play render daemon spectrogram term", "display.bar_width": "live play render daemon term",
        "display.bar_spacing": "live play render daemon term", "display.orientation": "live play render daemon term",
        "display.layout": "live play render daemon term", "display.inner_radius": "live play render daemon term",
        "display.radial_gap": "live play render daemon term", "display.rotation": "live play render daemon term",
        "display.background": "live play render daemon term", "display.borderless": "live play daemon",
        "display.layer": "live play daemon", "display.monitor": "live play daemon", "display.anchor": "live play daemon",
        "display.height": "live play daemon", "display.margin": "live play daemon", "display.caps": "live play render daemon term",
        "display.beat_accent": "live play render daemon term", "display.hold": "live play render daemon term",
        "display.fall": "live play render daemon term", "display.ballistics": "live play render daemon term",
        "display.meter_scale": "live play render daemon term", "display.loudness_targets": "live play render daemon term",
        "display.spectrum_floor": "live play render daemon term", "display.lows_at_edges": "live play render daemon term",
        "display.colormap": "live play render daemon spectrogram term", "display.spectrogram_floor": "live play render daemon spectrogram term",
        "display.scope_auto_gain": "live play render daemon term", "display.shader": "live play render daemon term", "display.shader_dir": "live play render daemon term", "display.preset": "live play render daemon term",
        "display.preset_dirs": "live play render daemon term", "display.all_presets": "live play render daemon term",
        "display.preset_shuffle": "live play render daemon term", "display.preset_duration": "live play render daemon term",
        "display.osc": "live play daemon", "display.toasts": "live play daemon", "display.preset_list": "live play render daemon term",
        "display.transition": "live play render daemon term", "display.transition_beats": "live play render daemon term",
        "display.milkdrop_scale": "live play render daemon term", "display.shader_scale": "live play render daemon term",
        "display.texture_dirs": "live play render daemon term", "display.seed": "live play render daemon term", "display.size": "live play daemon spectrogram",
        "display.graphics": "term", "display.fullscreen": "live play daemon", "display.fps": "live play daemon term", "display.attack": "live play render daemon term",
        "display.release": "live play render daemon term", "display.floor": "live play render daemon term",
        "display.sensitivity": "live play render daemon term",
        "audio.source": "live levels daemon term", "audio.apps": "live levels daemon term", "audio.exclude_apps": "live levels daemon term",
        "audio.backend": "live levels daemon term",
        "audio.av_offset": "live daemon",
        "player.loop": "play daemon term", "player.shuffle": "play daemon term", "player.volume": "play daemon term", "player.rate": "play daemon term",
        "player.pitch": "play daemon term", "player.scrubber": "play render daemon term", "player.scrubber_bar_width": "play render daemon term",
        "player.scrubber_bar_spacing": "play render daemon term", "player.scrubber_filter": "play render daemon term",
        "player.decibels": "play render daemon term", "player.noise_floor": "play render daemon term",
        "player.fill_indicator": "play render daemon term", "player.follow": "play daemon term", "player.scrub_audio": "play daemon term",
        "player.video_layout": "play render daemon term", "player.stream_cache_size": "play daemon term",
        "player.stream_timeout": "play daemon term", "player.connect_timeout": "play daemon term", "player.stream_start": "play daemon term",
        "daemon.tap": "daemon", "daemon.window": "daemon", "daemon.log_level": "daemon",
        "outputs.send": "live levels daemon",
    ]

    @Test("each row's commands")
    func rows() {
        #expect(Self.commands.count == ConfigSchema.keys.count)
        for key in ConfigSchema.keys {
            let commands = SettingCommand.allCases.filter(key.applies).map(\.rawValue).joined(separator: " ")
            #expect(commands == Self.commands[key.path], "\(key.path)")
        }
        #expect(SettingCommand.allCases.filter(\.hasWindow) == [.live, .play, .daemon])
    }

    @Test("what keys do in a window is said only where there is one")
    func windowHelp() {
        RegisteredModes.prepare()
        let mode = ConfigSchema.display.mode.key
        #expect(mode.help(for: .live).hasSuffix("(the milkdrop stand-in). m switches at run time."))
        #expect(mode.help(for: .render).hasSuffix("(the milkdrop stand-in)."))
        #expect(mode.help == mode.help(for: .daemon))
        #expect(ConfigSchema.player.decibels.key.help(for: .render) == "Start the scrubber in dB mode.")
        #expect(ConfigSchema.player.decibels.key.help(for: .play) == "Start the scrubber in dB mode. d switches at run time.")
        for key in ConfigSchema.keys where key.applies(to: .render) {
            #expect(!key.help(for: .render).contains("at run time") && !key.help(for: .render).contains("switches"), "\(key.path)")
        }
    }

    @Test("a command a setting means nothing to says why, in one line", arguments: [
        (ConfigSchema.display.layer.key, SettingCommand.render, "--layer does not apply to render (there is no window)"),
        (ConfigSchema.display.fps.key, .render, "--display-fps does not apply to render (there is no window)"),
        (ConfigSchema.display.theme.key, .levels, "--theme does not apply to levels (there is no window)"),
        (ConfigSchema.player.follow.key, .render, "--follow does not apply to render (there is no window)"),
        (ConfigSchema.player.follow.key, .live, "--follow does not apply to live (it plays no files)"),
        (ConfigSchema.player.volume.key, .render, "--volume does not apply to render (it plays nothing)"),
        (ConfigSchema.player.streamTimeout.key, .render, "--stream-timeout does not apply to render (it reads addresses with the default stream settings)"),
        (ConfigSchema.audio.apps.key, .play, "--app does not apply to play (it reads files, not a live source)"),
        (ConfigSchema.audio.avOffset.key, .levels, "--av-offset does not apply to levels (only a window on a live source is delayed)"),
        (ConfigSchema.daemon.tap.key, .live, "--tap does not apply to live (only the daemon takes it)"),
        (ConfigSchema.outputs.send.key, .play, "--send does not apply to play (only live, levels and the daemon send)"),
    ])
    func refusals(key: ConfigKey, command: SettingCommand, line: String) {
        #expect(key.refusal(for: command) == line)
        #expect(throws: ConfigFailure(line)) { try Configuration(options: [(key, .string("x"))], for: command) }
    }

    @Test("every option is taken by exactly the commands its row names; the others refuse it, saying why")
    func everyOption() {
        RegisteredModes.prepare()
        for key in ConfigSchema.keys {
            var value = key.defaultValue ?? (key.kind.isText ? .string("x") : .string("10"))
            // A number without a default whose range has no 10 (a fraction): its lowest.
            if key.defaultValue == nil, case .number(let range) = key.kind, !range.contains(10) { value = .string("\(range.lowerBound)") }
            for command in SettingCommand.allCases {
                do {
                    let layer = try Configuration(options: [(key, value)] + (key.rules.needs == nil ? [] : [(ConfigSchema.display.barWidth.key, .string("4"))]),
                                                  for: command)
                    #expect(key.applies(to: command) && layer.isSet(key), "\(command) \(key.path)")
                } catch {
                    #expect(!key.applies(to: command) && error.message == "\(key.optionName) does not apply to \(command.rawValue) (" +
                        (key.scope.reason(for: command) ?? "") + ")", "\(command) \(key.path): \(error)")
                }
            }
        }
    }

    @Test("options given become a layer, checked by their rows")
    func options() throws {
        let display = ConfigSchema.display
        let layer = try Configuration(options: [(display.bars.key, .string("8")), (display.caps.key, .bool(false)),
                                                (MeterSettings.rows.loudnessTargets.key, .array([.string("-23"), .string("-14")])),
                                                (display.sensitivity.key, .string("off"))], for: .render)
        #expect(layer.values == [display.bars.key.path: .number(8), display.caps.key.path: .bool(false),
                                 MeterSettings.rows.loudnessTargets.key.path: .array([.number(-23), .number(-14)]),
                                 display.sensitivity.key.path: .string("off")])
        #expect(try Configuration(options: [], for: .live).values.isEmpty)
        #expect(throws: ConfigFailure("--bars must be between 1 and 1024")) { try Configuration(options: [(display.bars.key, .string("0"))], for: .live) }
        #expect(throws: ConfigFailure("--loudness-target must be between -59 and 0 LUFS")) {
            try Configuration(options: [(MeterSettings.rows.loudnessTargets.key, .array([.string("3")]))], for: .live)
        }
    }

    @Test("the command line's own rules: an off switch beside its key, an option without the one it needs, an empty name")
    func rules() throws {
        let display = ConfigSchema.display
        #expect(display.sensitivity.key.rules.offSwitch?.name == "no-autosens")
        #expect(throws: ConfigFailure("--sensitivity and --no-autosens cannot be used together")) {
            try Configuration(options: [(display.sensitivity.key, .string("6")), (display.sensitivity.key, .string("off"))], for: .play)
        }
        #expect(throws: ConfigFailure("--bar-spacing needs --bar-width")) {
            try Configuration(options: [(display.barSpacing.key, .string("3"))], for: .live)
        }
        #expect(try Configuration(options: [(display.barWidth.key, .string("6")), (display.barSpacing.key, .string("3"))], for: .live)
            .isSet(display.barSpacing))
        #expect(throws: ConfigFailure("--source needs a name (see 'decibar devices')")) {
            try Configuration(options: [(ConfigSchema.audio.source.key, .string(""))], for: .live)
        }
        #expect(throws: ConfigFailure("--app and --exclude-app need an app's name (see 'decibar devices')")) {
            try Configuration(options: [(ConfigSchema.audio.excludeApps.key, .array([.string("mpv"), .string("")]))], for: .levels)
        }
    }

    @Test("how each option is given: repeated for a list, a minus allowed where the range is negative, words to complete")
    func optionShapes() {
        #expect(ConfigSchema.keys.filter(\.isRepeated).map(\.optionName) == ["--loudness-target", "--preset-dir", "--texture-dir", "--app", "--exclude-app", "--send"])
        #expect(ConfigSchema.keys.filter(\.takesNegativeNumbers).map(\.optionName) == [
            "--rotation", "--floor", "--sensitivity", "--spectrum-floor", "--spectrogram-floor", "--loudness-target", "--av-offset", "--pitch", "--noise-floor",
        ])
        #expect(ConfigSchema.display.theme.key.words == ["neon", "fire", "ocean", "forest", "mono", "sunset"])
        #expect(ConfigSchema.display.bars.key.words == nil)
        #expect(ConfigSchema.keys.filter(\.isFolder).map(\.path) == ["display.shader_dir"])
        #expect(ConfigSchema.keys.filter(\.isFile).map(\.path) == ["display.shader"])
    }
}

extension ConfigKey.Kind {
    /// Takes free text (where "10" is no value).
    fileprivate var isText: Bool {
        if case .text = self { true } else { false }
    }
}
