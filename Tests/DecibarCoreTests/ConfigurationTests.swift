import DecibarCore
import Testing

@Suite("Configuration keys")
struct ConfigurationTests {
    /// The table holds the registered modes' rows: the stand-ins are registered first.
    init() { RegisteredModes.prepare() }

    @Test("values are checked and normalized by their key's kind; text from the command line is read as the kind says")
    func checking() throws {
        var configuration = Configuration()
        try configuration.set("theme", to: .string("Fire"))
        #expect(configuration[ConfigSchema.display.theme.key] == .string("fire"))
        try configuration.set("display.bars", to: .string("64"))
        #expect(configuration[ConfigSchema.display.bars.key] == .number(64))
        try configuration.set("caps", to: .string("on"))
        #expect(configuration[ConfigSchema.display.caps])
        try configuration.set("sensitivity", to: .string("-6"))
        #expect(configuration[ConfigSchema.display.sensitivity.key] == .number(-6))
        try configuration.set("loudness_targets", to: .string("-23,-14"))
        #expect(configuration[MeterSettings.rows.loudnessTargets] == [-23, -14])
        try configuration.set("size", to: .string("800X600"))
        #expect(configuration[ConfigSchema.display.size.key] == .string("800x600"))
        #expect(throws: ConfigFailure("display.bars must be a whole number from 1 to 1024, not 0")) { try configuration.set("bars", to: .number(0)) }
        #expect(throws: ConfigFailure(#"display.theme must be one of neon, fire, ocean, forest, mono, sunset, not "purple""#)) {
            try configuration.set("theme", to: .string("purple"))
        }
        #expect(throws: ConfigFailure("player.noise_floor must be one of -50, -70, -90, not -60")) { try configuration.set("noise_floor", to: .number(-60)) }
        // A failed set changes nothing.
        #expect(configuration[ConfigSchema.display.theme.key] == .string("fire"))
    }

    @Test("app names: a JSON list (ctl set audio.apps '[\"spotify\"]'), names between commas, or one name; [] clears")
    func appNames() throws {
        var configuration = Configuration()
        try configuration.set("audio.apps", to: .string(#"["spotify", "Firefox"]"#))
        #expect(configuration[ConfigSchema.audio.apps] == ["spotify", "Firefox"])
        try configuration.set("apps", to: .string("mpv, vlc"))
        #expect(configuration[ConfigSchema.audio.apps] == ["mpv", "vlc"])
        try configuration.set("exclude_apps", to: .string("Discord"))
        #expect(configuration[ConfigSchema.audio.excludeApps] == ["Discord"])
        try configuration.set("apps", to: .array([]))
        #expect(configuration[ConfigSchema.audio.apps] == [])
        #expect(throws: ConfigFailure(#"audio.apps must be a list of names such as ["spotify"], not [1]"#)) {
            try configuration.set("apps", to: .array([.number(1)]))
        }
        #expect(throws: ConfigFailure(#"audio.apps must be a list of names such as ["spotify"], not "[spotify""#)) {
            try configuration.set("apps", to: .string("[spotify"))
        }
    }

    @Test("byte sizes: K, M and G are powers of 1024, stored in the largest unit that divides them")
    func byteSizes() throws {
        #expect(ConfigKey.byteSize("1G") == 1 << 30)
        #expect(ConfigKey.byteSize("500M") == 500 << 20)
        #expect(ConfigKey.byteSize("64 KiB") == 64 << 10)
        #expect(ConfigKey.byteSize("2gb") == 2 << 30)
        #expect(ConfigKey.byteSize("123") == 123)
        for bad in ["", "G", "1.5G", "-1M", "1T", "99999999999999G", "M1"] { #expect(ConfigKey.byteSize(bad) == nil, "\(bad)") }
        #expect(ConfigKey.byteText(1 << 30) == "1G" && ConfigKey.byteText(1536 << 20) == "1536M" && ConfigKey.byteText(1000) == "1000")
        var configuration = Configuration()
        try configuration.set("stream_cache_size", to: .string("2048M"))
        #expect(configuration[ConfigSchema.player.streamCacheSize.key] == .string("2G"))
        #expect(configuration[ConfigSchema.player.streamCacheSize] == 2 << 30)
        #expect(throws: ConfigFailure(#"player.stream_cache_size must be a size in bytes such as "500M" or "2G" (K, M and G are powers of 1024), from 16M to 1024G, not "1M""#)) {
            try configuration.set("stream_cache_size", to: .string("1M"))
        }
    }

    @Test("unknown keys suggest the closest; defaults read through")
    func lookup() throws {
        #expect(throws: ConfigFailure(#"no setting "them" (did you mean theme?)"#)) { try ConfigSchema.key(named: "them") }
        #expect(throws: ConfigFailure("unknown key display.bar_widht (did you mean display.bar_width?)")) { try ConfigSchema.key(section: "display", name: "bar_widht") }
        #expect(throws: ConfigFailure("unknown key audio.theme (did you mean display.theme?)")) { try ConfigSchema.key(section: "audio", name: "theme") }
        #expect(try ConfigSchema.key(named: "bar-width").path == "display.bar_width")
        #expect(Configuration()[ConfigSchema.display.mode.key] == .string("bars"))
        #expect(Configuration()[ConfigSchema.display.bars.key] == nil)
        #expect(Configuration()[ConfigSchema.daemon.tap.key] == .string("on-demand"))
    }

    @Test("every key has a unique path, a sentence of help, and a default its own check accepts")
    func schema() throws {
        RegisteredModes.prepare()
        #expect(Set(ConfigSchema.keys.map(\.path)).count == ConfigSchema.keys.count)
        for key in ConfigSchema.keys {
            #expect(ConfigSchema.sections.contains(key.section))
            #expect(key.help.count > 15 && key.help.hasSuffix(".") || key.help.hasSuffix(")"), "\(key.path)")
            if let value = key.defaultValue { #expect(try key.check(value) == value, "\(key.path)") }
        }
    }

    @Test("later layers win: file, then command line, then run time")
    func layers() throws {
        var file = Configuration()
        try file.set("theme", to: .string("ocean"))
        try file.set("caps", to: .bool(true))
        var flags = Configuration()
        try flags.set("theme", to: .string("fire"))
        let merged = file.merging(flags)
        #expect(merged[ConfigSchema.display.theme.key] == .string("fire"))
        #expect(merged[ConfigSchema.display.caps])
    }

    @Test("the annotated default text names every key once, commented out with its default")
    func annotatedText() {
        let text = Configuration().text(effective: false)
        for key in ConfigSchema.keys {
            let lines = text.split(separator: "\n").filter { $0.hasPrefix("# \(key.name) =") }
            #expect(lines.count == 1, "\(key.path)")
        }
        #expect(text.contains("# theme = \"neon\"\n"))
        #expect(text.contains("# loudness_targets = []\n"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= 100 })
        let shown = Configuration().text(effective: true)
        #expect(shown.contains("\ntheme = \"neon\"\n"))
        #expect(shown.contains("[daemon]\n"))
    }
}
