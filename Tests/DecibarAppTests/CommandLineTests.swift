import DecibarApp
import DecibarCore
import Foundation
import Testing
@testable import decibar

@Suite("Command line")
struct CommandLineTests {
    @Test("bad values exit with status 2 and one line", arguments: [
        ["live", "--bars", "0"], ["live", "--bars", "many"], ["live", "--size", "12x"], ["live", "--exit-after", "0"],
        ["levels", "--rate", "0"], ["levels", "--duration", "-3"], ["levels", "--file", "a.wav", "--source", "x"],
        ["levels", "--bogus"], ["live", "--screenshot", "/no/such/folder/x.png"], ["frobnicate"],
        ["live", "--mode", "waves"], ["live", "--theme", "plaid"], ["live", "--background", "glass"],
        ["live", "--orientation", "left"], ["live", "--bar-width", "0"], ["live", "--bar-spacing", "3"],
        ["live", "--fall", "0"], ["live", "--hold", "-1"], ["live", "--ballistics", "vu"], ["live", "--shader-dir", "/no/such/folder"], ["live", "--shader", "/no/such/file.glsl"], ["live", "--shader", "/tmp"],
        ["live", "--av-offset", "99999"], ["play", "x.wav", "--mode", "waves"],
        ["levels", "--mode", "waves"], ["levels", "--mode", "spectrum", "--bands", "0"],
        ["render", "x.wav", "-o", "out.xyz"], ["render", "x.wav", "-o", "out.mp4", "--fps", "0"],
        ["render", "x.wav", "-o", "out.mp4", "--size", "641x360"], ["render", "x.wav", "-o", "out.mp4", "--fullscreen"],
        ["render", "x.wav"], ["live", "--record", "out.avi"], ["live", "--record-fps", "0"],
        ["live", "--sensitivity", "41"], ["live", "--sensitivity", "nan"], ["play", "x.wav", "--sensitivity", "6", "--no-autosens"],
        ["levels", "--app", ""], ["live", "--exclude-app", ""], ["daemon", "--app", ""], ["levels", "--file", "a.wav", "--app", "mpv"],
        ["levels", "--socket", "/tmp/x.sock", "--app", "mpv"],
    ])
    func badValues(arguments: [String]) throws {
        // Parsed in this process: checking values needs no program to start.
        do {
            _ = try Decibar.parseAsRoot(arguments)
            Issue.record("\(arguments) was accepted")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2, "\(arguments): \(line ?? "")")
            #expect(line.map { !$0.isEmpty && !$0.contains("\n") } == true, "\(arguments): \(line ?? "nothing said")")
        }
    }

    @Test("every command explains every option in --help", arguments: [
        ("live", ["--source", "--bars", "--size", "--fullscreen", "--exit-after", "--screenshot", "--mode", "--theme",
                  "--bar-width", "--bar-spacing", "--orientation", "--background", "--borderless", "--caps", "--hold",
                  "--fall", "--ballistics", "--shader-dir", "--av-offset", "--lows-at-edges", "--spectrum-floor",
                  "--record", "--record-fps", "--sensitivity", "--no-autosens"]),
        ("play", ["--mode", "--theme", "--caps", "--loop", "--fill-indicator", "--decibels", "--noise-floor", "--scrubber-filter"]),
        ("levels", ["--source", "--app", "--exclude-app", "--file", "--rate", "--duration", "--mode", "--bands"]),
        ("daemon", ["--source", "--app", "--exclude-app"]),
        ("render", ["--output", "--fps", "--duration", "--size", "--mode", "--theme", "--background", "--scrubber-filter",
                    "--sensitivity", "--no-autosens"]),
        ("devices", ["--json"]),
    ])
    func help(command: String, options: [String]) throws {
        let type = try #require(Decibar.configuration.subcommands.first { $0._commandName == command })
        let text = Decibar.helpMessage(for: type, columns: 100)
        for option in options { #expect(text.contains(option), "\(command) --help lacks \(option)") }
        #expect(!text.contains("frame-log") && !text.contains("seek-log"))
    }

    @Test("help texts keep their own line breaks: no runs of spaces from the source's indentation")
    func helpTextSpacing() {
        for type in Decibar.configuration.subcommands {
            let discussion = type.configuration.discussion
            #expect(!discussion.contains("   "), "\(type._commandName): \(discussion)")
        }
    }

    @Test("ctl --help, -h and help print ctl's help with status 0", arguments: [["ctl", "--help"], ["ctl", "-h"], ["ctl", "help"]])
    func ctlHelp(arguments: [String]) {
        do {
            _ = try Decibar.parseAsRoot(arguments)
            Issue.record("\(arguments) parsed as a command")
        } catch {
            #expect(Decibar.exitCode(for: error) == .success)
            let text = Decibar.fullMessage(for: error)
            #expect(text.contains("Tell the running daemon what to do") && text.contains("USAGE: decibar ctl"), "\(text)")
        }
    }

    @Test("ctl's words become protocol commands", arguments: [
        (["status"], #"["get_status"]"#),
        (["toggle"], #"["toggle_window"]"#),
        (["mode", "meter"], #"["mode","meter"]"#), (["volume", "+5"], #"["volume",5,"relative"]"#), (["rate", "normal"], #"["rate","normal"]"#), (["ab-loop", "a"], #"["ab_loop","a"]"#), (["zoom", "in"], #"["zoom","in"]"#),
        (["set", "theme", "fire"], #"["set","theme","fire"]"#),
        (["set", "loudness_targets", "-23", "-14"], #"["set","loudness_targets","-23,-14"]"#),
        (["get", "bars"], #"["get","bars"]"#),
        (["seek", "+5"], #"["seek",5,"relative"]"#),
        (["seek", "1:30"], #"["seek",90,"absolute"]"#),
        (["seek", "-0:05"], #"["seek",-5,"relative"]"#),
        (["toggle-pause"], #"["cycle_pause"]"#),
        (["open", "/a.wav", "http://example.org/b.mp3"], #"["open",["/a.wav","http://example.org/b.mp3"],"replace"]"#),
        (["open", "--append", "/a.wav"], #"["open",["/a.wav"],"append"]"#),
    ])
    func ctlWords(words: [String], expected: String) throws {
        #expect(JSONValue.array(try ControlCommandLine.command(from: words)).text == expected)
    }

    @Test("ctl's mistakes are one line with status 2", arguments: [
        (["statuss"], "no command 'statuss' (did you mean status?); see 'decibar ctl --help'"),
        (["seek", "soon"], "seek takes a time: 90 or 1:30 (absolute), +5 or -5 (relative)"),
        (["set", "theme"], "set takes a key and a value, such as 'set theme fire'"),
        (["show", "now"], "show takes no arguments"),
        (["open"], "open takes one or more files"),
    ])
    func ctlMistakes(words: [String], expected: String) {
        do {
            _ = try Decibar.parseAsRoot(["ctl"] + words)
            Issue.record("\(words) was accepted")
        } catch {
            let (line, status) = Decibar.report(for: error)
            #expect(status == 2 && line == expected, "\(line ?? "")")
        }
    }
}

@Suite("ctl's lines")
struct ControlReplyTests {
    @Test("a status reply is one line: window, mode, tap, player with position and speed, subscribers, a config error")
    func statusLine() {
        let status: JSONValue = .object([
            "window": .string("shown"), "mode": .string("spectrum"),
            "tap": .object(["state": .string("capturing"), "device": .string("viz.monitor"), "backend": .string("pipewire")]),
            "player": .object(["state": .string("playing"), "file": .string("/music/a.flac"), "index": .number(1),
                               "playlist": .array([.string("/music/z.flac"), .string("/music/a.flac")]),
                               "position": .number(75), "duration": .number(200), "rate": .number(1.5), "pitch": .number(0)]),
            "subscribers": .number(1), "config_error": .string("c.toml:2:1: bad"),
        ])
        let line = ControlCommandLine.describe(status, for: [.string("get_status")])
        #expect(line == "window shown  ·  spectrum  ·  tap capturing (viz.monitor) via pipewire  ·  player playing 2/2 a.flac 1:15/3:20 1.50x  0 cents  ·  1 subscriber  ·  config error: c.toml:2:1: bad")
        // At the display's rate nothing more is said; at a part of it, the rate.
        let full = JSONValue.object(["window": .string("shown"), "mode": .string("bars"), "frame_rate": .number(60), "refresh_rate": .number(60)])
        #expect(ControlCommandLine.describe(full, for: [.string("get_status")]) == "window shown  ·  bars")
        let slow = JSONValue.object(["window": .string("shown"), "mode": .string("milkdrop"), "frame_rate": .number(30), "refresh_rate": .number(60)])
        #expect(ControlCommandLine.describe(slow, for: [.string("get_status")]) == "window shown at 30 frames/s (display 60)  ·  milkdrop")
    }

    @Test("other replies: text as it is, anything else as JSON, nothing for no data")
    func otherReplies() {
        #expect(ControlCommandLine.describe(.string("fire"), for: [.string("get"), .string("theme")]) == "fire")
        #expect(ControlCommandLine.describe(.number(12), for: [.string("get"), .string("bars")]) == "12")
        #expect(ControlCommandLine.describe(nil, for: [.string("show")]) == nil)
    }
}
