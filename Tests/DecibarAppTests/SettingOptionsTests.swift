import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation
import Testing
@testable import decibar

/// Each command lists and takes the settings that apply to it (the table says which), and
/// refuses the others in one line that says why.
@Suite("Options from the settings table")
struct SettingOptionsTests {
    /// The commands that take settings, the words before their options, and their options that are not settings.
    static let commands: [(type: any ParsableCommand.Type, command: SettingCommand, before: [String], own: Set<String>)] = [
        (Decibar.Live.self, .live, ["live"], ["--exit-after", "--screenshot", "--record", "--record-fps", "--config", "--version", "--help"]),
        (Decibar.Play.self, .play, ["play", "x.wav"],
         ["--exit-at-end", "--exit-after", "--screenshot", "--record", "--record-fps", "--config", "--version", "--help"]),
        (Decibar.Render.self, .render, ["render", "x.wav", "-o", NSTemporaryDirectory() + "decibar-options.mp4"],
         ["--output", "--fps", "--duration", "--size", "--captions", "--captions-track", "--cover", "--title", "--artist", "--backdrop", "--watermark", "--watermark-corner", "--progress", "--version", "--help"]),
        (Decibar.Levels.self, .levels, ["levels"], ["--file", "--mode", "--bands", "--format", "--bars", "--ascii-max", "--raw", "--floor",
                                                    "--standalone", "--socket", "--rate", "--duration", "--version", "--help"]),
        (Decibar.Daemon.self, .daemon, ["daemon"], ["--config", "--socket", "--version", "--help"]),
    ]

    /// The options a help text lists (`--caps/--no-caps` is two), without `-o`-style short names.
    static func options(inHelp text: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ").prefix(while: { $0.hasPrefix("-") }) {
                for name in word.split(separator: "/") where name.hasPrefix("--") { names.insert(String(name.filter { $0 != "," })) }
            }
        }
        return names
    }

    /// What a row adds to the options of a command it applies to.
    static func names(of key: ConfigKey) -> [String] {
        var names = [key.optionName]
        if case .boolean = key.kind { names.append("--no-" + key.optionName.dropFirst(2)) }
        if let offSwitch = key.rules.offSwitch { names.append("--" + offSwitch.name) }
        return names
    }

    @Test("each command's --help lists exactly its own options and the settings that apply to it")
    func helpLists() {
        for (type, command, _, own) in Self.commands {
            let text = Decibar.helpMessage(for: type, columns: 100)
            let settings = ConfigSchema.keys.filter { $0.applies(to: command) && !own.contains($0.optionName) }.flatMap(Self.names)
            #expect(Self.options(inHelp: text) == own.union(settings), "\(command)")
            #expect(command.hasWindow || !text.contains("at run time"), "\(command)")
        }
        let render = Self.options(inHelp: Decibar.helpMessage(for: Decibar.Render.self, columns: 100))
        for option in ["--layer", "--monitor", "--anchor", "--height", "--margin", "--borderless", "--fullscreen", "--display-fps",
                       "--exit-after", "--screenshot", "--record", "--record-fps", "--follow", "--scrub-audio"] {
            #expect(!render.contains(option), "render --help lists \(option)")
        }
        #expect(Self.options(inHelp: Decibar.helpMessage(for: Decibar.Live.self, columns: 100)).contains("--layer"))
        #expect(Self.options(inHelp: Decibar.helpMessage(for: Decibar.Play.self, columns: 100)).contains("--follow"))
        #expect(!Decibar.helpMessage(for: Decibar.Render.self, columns: 100).contains("m switches"))
    }

    @Test("the commands docs/config.md says read the config file are those whose --help lists --config")
    func configFileReaders() {
        let types: [any (ParsableCommand & SettingsCommand).Type] = [Decibar.Live.self, Decibar.Play.self, Decibar.Render.self,
            Decibar.Levels.self, Decibar.Daemon.self, Decibar.Spectrogram.self, Decibar.PeaksExport.self, Decibar.Scale.self, Decibar.Term.self]
        #expect(Set(types.map { $0.settingCommand }) == Set(SettingCommand.allCases))
        for type in types {
            let command = type.settingCommand
            let listed = Self.options(inHelp: Decibar.helpMessage(for: type, columns: 100)).contains("--config")
            #expect(listed == command.readsConfigFile, "\(command): --config listed \(listed)")
        }
        // One that reads none says so when given it, as a setting that does not apply does.
        for (_, command, before, _) in Self.commands where !command.readsConfigFile {
            do {
                _ = try Decibar.parseAsRoot(before + ["--config", "x.toml"])
                Issue.record("\(command) took --config")
            } catch {
                let (line, status) = Decibar.report(for: error)
                #expect(status == 2 && line == "--config does not apply to \(command) (it reads no config file: the same command line makes the same output on every machine)",
                        "\(line ?? "")")
            }
        }
        let reference = ConfigSchema.reference()
        #expect(reference.contains("`live`, `play`, `daemon`, `term` (and `keys`) read"), "\(reference.prefix(600))")
        #expect(reference.contains("`render`, `levels`, `spectrogram`, `peaks`, `scale`\nread no file"), "\(reference.prefix(900))")
    }

    /// A value each row takes.
    static func value(for key: ConfigKey) -> [String] {
        switch key.kind {
        case .boolean: []
        case .integer(let range): [String(range.lowerBound)]
        case .number(let range), .numbers(let range): [range.lowerBound == range.lowerBound.rounded() ? String(Int(range.lowerBound)) : String(range.lowerBound)]
        case .choice(let words): [words.list[0]]
        case .numberChoice(let numbers): [String(Int(numbers[0]))]
        case .size: ["64x64"]
        case .sensitivity: ["-40"]
        case .scale: ["auto"]
        case .byteSize: ["1G"]
        case .text: [key.isFolder ? NSTemporaryDirectory() : key.isFile ? #filePath : "x"]
        case .names: ["x"]
        case .outputs: ["osc://127.0.0.1:9000"]
        }
    }

    @Test("every setting's option is taken by exactly the commands the table says; the others know it only to refuse it")
    func acceptedWhereItApplies() throws {
        for (type, command, before, own) in Self.commands {
            // What the parser knows (help, man pages and completions show only the listed ones).
            let dump = try #require(try JSONSerialization.jsonObject(with: Data(type._dumpHelp().utf8)) as? [String: Any])
            let arguments = try #require((dump["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
            var known = Set<String>(), listed = Set<String>()
            for argument in arguments {
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String == "long" ? "--" + ($0["name"] as? String ?? "") : nil }
                known.formUnion(names)
                if argument["shouldDisplay"] as? Bool == true { listed.formUnion(names) }
            }
            for key in ConfigSchema.keys where !own.contains(key.optionName) {
                for name in Self.names(of: key) {
                    #expect(known.contains(name) && listed.contains(name) == key.applies(to: command), "\(command) \(name)")
                }
            }
            // The command takes all of its settings at once, each into the layer over its file.
            let keys = ConfigSchema.keys.filter { $0.applies(to: command) && !own.contains($0.optionName) }
            let parsed = try Decibar.parseAsRoot(before + keys.flatMap { [$0.optionName] + Self.value(for: $0) })
            let settingsCommand = try #require(parsed as? any SettingsCommand)
            let layer = try Self.layer(of: settingsCommand)
            #expect(keys.allSatisfy(layer.isSet) && layer.values.count == keys.count, "\(command)")
            // And refuses, in one line, one it does not take (each row's line: SettingScopeTests).
            guard let other = ConfigSchema.keys.last(where: { !$0.applies(to: command) && !own.contains($0.optionName) }) else {
                #expect(command == .daemon, "the daemon takes every setting")
                continue
            }
            do {
                _ = try Decibar.parseAsRoot(before + [other.optionName] + Self.value(for: other))
                Issue.record("\(command) took \(other.optionName)")
            } catch {
                #expect(Decibar.report(for: error).line == other.refusal(for: command) && Decibar.report(for: error).status == 2)
            }
        }
    }

    static func layer<Command: SettingsCommand>(of command: Command) throws -> Configuration { try command.options.layer() }

    @Test("an option that does not apply: one line that says why, status 2", arguments: [
        (["render", "x.wav", "-o", "out.mp4", "--layer", "overlay"], "--layer does not apply to render (there is no window)"),
        (["render", "x.wav", "-o", "out.mp4", "--display-fps", "144"], "--display-fps does not apply to render (there is no window)"),
        (["render", "x.wav", "-o", "out.mp4", "--no-fullscreen"], "--fullscreen does not apply to render (there is no window)"),
        (["render", "x.wav", "-o", "out.mp4", "--scrub-audio"], "--scrub-audio does not apply to render (there is no window)"),
        (["render", "x.wav", "-o", "out.mp4", "--record-fps", "20"], "--record-fps does not apply to render (--fps is the video's)"),
        (["levels", "--theme", "fire"], "--theme does not apply to levels (there is no window)"),
        (["play", "x.wav", "--source", "mic"], "--source does not apply to play (it reads files, not a live source)"),
        (["live", "--loop", "track"], "--loop does not apply to live (it plays no files)"),
    ])
    func refused(arguments: [String], message: String) {
        do {
            _ = try Decibar.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2 && line == message, "\(line ?? "")")
        }
    }

    @Test("the daemon takes every setting, over its file: the player's and the offset too")
    func daemonTakesEverySetting() throws {
        let command = try Decibar.parseAsRoot(["daemon", "--volume", "40", "--loop", "track", "--av-offset", "-20", "--stream-timeout", "5"])
        let settings = try #require(command as? Decibar.Daemon).settings()
        #expect(settings.overrides[ConfigSchema.player.volume] == 40 && settings.overrides[ConfigSchema.player.loop] == .track)
        #expect(settings.overrides[ConfigSchema.audio.avOffset] == -20 && settings.overrides[ConfigSchema.player.streamTimeout] == 5)
    }
}
