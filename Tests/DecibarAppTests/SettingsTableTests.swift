import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation
import Testing
@testable import decibar

/// The settings table is the only spelling of a key: options, checks, the config file and
/// `docs/config.md` all come from it.
@Suite("Settings table")
struct SettingsTableTests {
    /// The commands whose options set config keys.
    static let helpTexts = [Decibar.Live.self, Decibar.Play.self, Decibar.Daemon.self, Decibar.Term.self].map {
        Decibar.helpMessage(for: $0, columns: 200)
    }

    @Test("every key is an option of a command that uses it, with the table's help")
    func everyKeyIsAnOption() {
        let help = Self.helpTexts.joined(separator: "\n")
        for key in ConfigSchema.keys {
            // The file's list of loudness targets is one repeated option.
            let option = key == MeterSettings.rows.loudnessTargets.key ? "--loudness-target" : key.optionName
            #expect(help.contains(option + " ") || help.contains(option + "/") || help.contains(option + "\n"), "\(key.path): no \(option)")
            let firstWords = key.help.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(help.contains(firstWords), "\(key.path): help does not say \"\(firstWords)\"")
        }
    }

    @Test("an option's value is checked by its row, and the message names the option", arguments: [
        (["live", "--bars", "0"], "--bars must be between 1 and 1024"),
        (["live", "--bar-width", "513"], "--bar-width must be between 1 and 512 pixels"),
        (["live", "--hold", "70000"], "--hold must be between 0 and 60000 ms"),
        (["live", "--spectrum-floor", "-5"], "--spectrum-floor must be between -160 and -10 dB"),
        (["live", "--sensitivity", "41"], "--sensitivity must be between -40 and 40 dB"),
        (["live", "--av-offset", "99999"], "--av-offset must be between -5000 and 5000 ms"),
        (["live", "--theme", "plaid"], "--theme must be one of neon, fire, ocean, forest, mono, sunset"),
        (["live", "--loudness-target", "3"], "--loudness-target must be between -59 and 0 LUFS"),
        (["play", "x.wav", "--volume", "151"], "--volume must be between 0 and 150 percent"),
        (["play", "x.wav", "--rate", "5"], "--rate must be between 0.25 and 4 factor"),
        (["play", "x.wav", "--pitch", "-2500"], "--pitch must be between -2400 and 2400 cents"),
        (["live", "--av-offset", "-6000"], "--av-offset must be between -5000 and 5000 ms"),
        (["play", "x.wav", "--noise-floor", "-60"], "--noise-floor must be -50, -70 or -90"),
        (["play", "x.wav", "--scrubber-filter", "median"], "--scrubber-filter must be one of max, average"),
        (["play", "x.wav", "--stream-start", "2"], "--stream-start must be between 0.1 and 1 seconds"),
        (["play", "x.wav", "--stream-cache-size", "1M"],
         #"--stream-cache-size must be a size in bytes such as "500M" or "2G" (K, M and G are powers of 1024), from 16M to 1024G, not "1M""#),
        (["daemon", "--window", "maybe"], "--window must be one of hidden, shown"),
        (["daemon", "--log-level", "loud"], "--log-level must be one of trace, debug, info, notice, warning, error, critical"),
    ])
    func optionMessages(arguments: [String], message: String) {
        do {
            _ = try Decibar.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2)
            #expect(line == message)
        }
    }

    @Test("typed reads: a default from the row, a set value, and unset optional keys")
    func typedReads() throws {
        var configuration = Configuration()
        #expect(configuration[ConfigSchema.display.mode] == VisualMode(registered: "bars"))
        #expect(configuration[ConfigSchema.display.bars] == nil)
        #expect(configuration[ConfigSchema.display.size] == PixelSize(width: 1280, height: 720))
        #expect(configuration[ConfigSchema.player.streamCacheSize] == 1 << 30)
        #expect(configuration[ConfigSchema.display.sensitivity] == .automatic)
        try configuration.set("mode", to: .string("spectrum"))
        try configuration.set("bars", to: .string("64"))
        try configuration.set("size", to: .string("800x600"))
        try configuration.set("sensitivity", to: .string("off"))
        try configuration.set("loop", to: .bool(true))
        #expect(configuration[ConfigSchema.display.mode] == VisualMode(registered: "spectrum"))
        #expect(configuration[ConfigSchema.display.bars] == 64)
        #expect(configuration[ConfigSchema.display.size] == PixelSize(width: 800, height: 600))
        #expect(configuration[ConfigSchema.display.sensitivity] == .off)
        #expect(configuration[ConfigSchema.player.loop] == .playlist, "a loop that was a switch still takes true")
        #expect(configuration.isSet(ConfigSchema.display.bars) && !configuration.isSet(ConfigSchema.display.theme))
    }

    @Test("the settings structs' defaults are the table's")
    func structDefaults() {
        let display = DisplaySettings()
        let fromTable = DisplaySettings(configuration: Configuration())
        #expect(display.theme == fromTable.theme && display.hold == fromTable.hold && display.floor == fromTable.floor)
        #expect(display.size == fromTable.size && display.fall == fromTable.fall && display.orientation == fromTable.orientation)
        let scrubber = ScrubberSettings()
        #expect(scrubber.barWidth == 3 && scrubber.barSpacing == 2 && scrubber.noiseFloor == -70)
        #expect(StreamSettings(configuration: Configuration()) == StreamSettings())
    }

    @Test("docs/config.md is what `decibar config doc` prints (make docs rewrites it)")
    func referenceIsCurrent() throws {
        let path = Self.repository + "/docs/config.md"
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == ConfigSchema.reference(), "docs/config.md is out of date: run make docs")
    }

    @Test("the reference covers every key `config show` prints")
    func referenceCoversShow() {
        let reference = ConfigSchema.reference()
        var section = ""
        var shown = 0
        for line in Configuration().text(effective: true).split(separator: "\n") {
            if line.hasPrefix("[") { section = String(line.dropFirst().dropLast()); continue }
            guard let name = line.split(separator: " ").first, !line.hasPrefix("#") else { continue }
            shown += 1
            #expect(reference.contains("### `\(section).\(name)`"), "\(section).\(name)")
        }
        #expect(ConfigSchema.keys.count > 40 && shown > 30, "\(ConfigSchema.keys.count) in the table, \(shown) shown")
    }

    @Test("no config key is spelled as a string in more than one source file")
    func keysSpelledOnce() throws {
        let sources = Self.repository + "/Sources"
        var files: [String: Set<String>] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources))
        for case let file as String in enumerator where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            for key in ConfigSchema.keys {
                // A path in quotes, or the row's own spelling: section and name as two strings.
                if text.contains("\"\(key.path)\"") || text.contains(".\(key.section), \"\(key.name)\"") { files[key.path, default: []].insert(file) }
            }
        }
        for key in ConfigSchema.keys {
            // Its group's file: the section's (ConfigSchema) or the mode's (in its folder).
            #expect(files[key.path]?.count == 1, "\(key.path): \(files[key.path] ?? [])")
        }
    }

    /// The checkout these tests were built from.
    static var repository: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }
}
