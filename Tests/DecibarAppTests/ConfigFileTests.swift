import DecibarApp
import DecibarCore
import Foundation
import Testing

/// Reading the config file: every problem with its line and column, suggestions for misspellings,
/// and the annotated file `config init` writes reading back as the defaults.
@Suite("Config file")
struct ConfigFileTests {
    static func problems(_ text: String) -> [String] {
        do {
            _ = try ConfigFile.parse(text, path: "c.toml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test("values are read by their key's kind")
    func values() throws {
        let configuration = try ConfigFile.parse("""
            [display]
            theme = "Fire"
            size = "800x600"
            loudness_targets = [-23, -14]
            sensitivity = -6
            [audio]
            apps = ["Spotify", "mpv"]
            exclude_apps = "Discord"
            [player]
            stream_cache_size = "2048M"
            loop = true
            """, path: "c.toml")
        #expect(configuration[ConfigSchema.audio.apps] == ["Spotify", "mpv"])
        #expect(configuration[ConfigSchema.audio.excludeApps] == ["Discord"])
        #expect(configuration[ConfigSchema.display.theme] == "fire")
        #expect(configuration[ConfigSchema.display.size] == PixelSize(width: 800, height: 600))
        #expect(configuration[MeterSettings.rows.loudnessTargets] == [-23, -14])
        #expect(configuration[ConfigSchema.display.sensitivity] == .fixed(decibels: -6))
        #expect(configuration[ConfigSchema.player.streamCacheSize] == 2 << 30)
        #expect(configuration[ConfigSchema.player.loop] == .playlist)
    }

    @Test("every problem is listed, in the order of the file, with a suggestion where one is close")
    func problems() {
        #expect(Self.problems("""
            [display]
            them = "fire"
            bars = 2000
            [playr]
            volume = 50
            """) == [
                "c.toml:2:1: unknown key display.them (did you mean display.theme?)",
                "c.toml:3:1: display.bars must be a whole number from 1 to 1024, not 2000",
                "c.toml:4:1: unknown section [playr] (did you mean [player]?)",
            ])
    }

    @Test("a key outside its section says which section it belongs to")
    func keyOutsideSection() {
        #expect(Self.problems("theme = \"fire\"\n") == [#"c.toml:1:1: theme must be inside a section (did you mean [display] theme = ...?)"#])
    }

    @Test("TOML that does not parse is one problem with its place")
    func syntax() {
        let found = Self.problems("[display]\ntheme = \"fire\nbars = 3\n")
        #expect(found.count == 1 && found[0].hasPrefix("c.toml:2:"), "\(found)")
    }

    @Test("the annotated file config init writes reads back as the defaults; config show's text reads back as the values")
    func roundTrip() throws {
        #expect(try ConfigFile.parse(Configuration().text(effective: false), path: "init.toml") == Configuration())
        var configuration = Configuration()
        try configuration.set("theme", to: .string("ocean"))
        try configuration.set("loudness_targets", to: .string("-23,-14"))
        try configuration.set("av_offset", to: .number(-40))
        let shown = try ConfigFile.parse(configuration.text(effective: true), path: "show.toml")
        for key in ConfigSchema.keys { #expect(shown[key] == configuration[key], "\(key.path)") }
    }

    @Test("a missing default file is the defaults; a missing named one, binary or non-UTF-8 text is an error")
    func files() throws {
        let folder = try TemporaryFolder()
        #expect(try ConfigFile.load(folder.path + "/none.toml") == Configuration())
        do {
            _ = try ConfigFile.load(folder.path + "/none.toml", mustExist: true)
            Issue.record("a missing named file was read")
        } catch {
            // The whole file: no line or column to point at.
            #expect(error.summary == "\(folder.path)/none.toml: no such file" && error.screenSummary == "none.toml: no such file")
        }
        let binary = folder.path + "/binary.toml"
        try Data([0xFF, 0xFE, 0x00, 0x80]).write(to: URL(fileURLWithPath: binary))
        do {
            _ = try ConfigFile.load(binary)
            Issue.record("bytes that are not UTF-8 were read")
        } catch {
            #expect(error.summary == "\(binary): the file is not UTF-8 text")
        }
    }

    @Test("several problems are summed up in one line for the log and the status")
    func summary() {
        do {
            _ = try ConfigFile.parse("[display]\nbars = 0\ncaps = 3\n", path: "c.toml")
            Issue.record("accepted")
        } catch {
            #expect(error.summary == "c.toml:2:1: display.bars must be a whole number from 1 to 1024, not 0 (and 1 more: decibar config check)")
        }
    }
}
