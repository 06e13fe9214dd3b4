import DecibarCore
import Foundation
import Testing
@testable import DecibarApp

/// The daemon's commands, replies and errors, its config reload and a broken edit: in-process, with
/// no socket, window, sound server or session bus.
@Suite("Daemon commands")
struct DaemonCommandTests {
    @Test("get_status: hidden window, closed tap, idle player, the theme and mode in force")
    func status() throws {
        let rig = try DaemonUnderTest(config: "[display]\ntheme = \"ocean\"\nmode = \"meter\"\n")
        let status = try #require(try rig.execute(.getStatus)?.object)
        #expect(status["window"] == .string("hidden"))
        #expect(status["tap"] == .object(["state": .string("closed")]))
        #expect(status["theme"] == .string("ocean") && status["mode"] == .string("meter"))
        #expect(status["config"] == .string(rig.configPath))
        #expect(status["subscribers"] == .number(0))
        #expect(status["player"]?.object?["state"] == .string("idle"))
        #expect(status["config_error"] == nil)
    }

    @Test("set then get: the value is checked, normalized and in force at once")
    func setAndGet() throws {
        let rig = try DaemonUnderTest()
        #expect(try rig.execute(.get(key: "theme")) == .string("neon"))
        _ = try rig.execute(.set(key: "theme", value: .string("Fire")))
        #expect(try rig.execute(.get(key: "display.theme")) == .string("fire"))
        #expect(rig.daemon.display.theme == "fire")
        _ = try rig.execute(.set(key: "bar-width", value: .string("12")))
        #expect(try rig.execute(.get(key: "bar_width")) == .number(12))
        #expect(try rig.execute(.get(key: "bars")) == .null, "an unset key without a default")
    }

    @Test("set: a bad value is invalid parameter, an unknown key option not found with a suggestion; nothing changes", arguments: [
        ("bars", JSONValue.number(0), ControlFailure.Code.invalidParameter, "display.bars must be a whole number from 1 to 1024, not 0"),
        ("theme", .string("purple"), .invalidParameter, #"display.theme must be one of neon, fire, ocean, forest, mono, sunset, not "purple""#),
        ("them", .string("fire"), .optionNotFound, #"no setting "them" (did you mean theme?)"#),
        ("volume", .string("loud"), .invalidParameter, #"player.volume must be a number from 0 to 150, not "loud""#),
    ])
    func setFailures(key: String, value: JSONValue, code: ControlFailure.Code, message: String) throws {
        let rig = try DaemonUnderTest()
        #expect(throws: ControlFailure(code, message)) { try rig.execute(.set(key: key, value: value)) }
        #expect(try rig.execute(.get(key: "theme")) == .string("neon"))
        #expect(rig.daemon.runtime.values.isEmpty)
    }

    @Test("get of an unknown key: option not found")
    func getUnknown() throws {
        let rig = try DaemonUnderTest()
        #expect(throws: ControlFailure(.optionNotFound, #"no setting "bar_widht" (did you mean bar_width?)"#)) { try rig.execute(.get(key: "bar_widht")) }
    }

    @Test("player commands with nothing open say how to open something", arguments: [
        ControlCommand.play, .pause, .cyclePause, .stop, .next, .previous, .seek(seconds: 5, relative: true), .zoom(factor: 2), .chapter(forward: true),
    ])
    func nothingOpen(command: ControlCommand) throws {
        let rig = try DaemonUnderTest()
        #expect(throws: ControlFailure(.commandFailed, "nothing is open in the player: decibar ctl open FILE...")) { try rig.execute(command) }
    }

    @Test("open of files that cannot be played fails and leaves no player")
    func openNothingPlayable() throws {
        let rig = try DaemonUnderTest()
        let junk = try rig.folder.write("junk.wav", "not audio")
        #expect(throws: ControlFailure(.commandFailed, "none of the files could be played (the daemon's log says why)")) {
            try rig.execute(.open(paths: [junk, rig.folder.path + "/missing.flac"], append: false))
        }
        #expect(rig.daemon.session == nil)
    }

    @Test("a saved edit reloads: the file's values, and what ctl set is forgotten")
    func reload() throws {
        let rig = try DaemonUnderTest(config: "[display]\ntheme = \"ocean\"\n")
        _ = try rig.execute(.set(key: "caps", value: .bool(true)))
        try rig.rewriteConfig("[display]\ntheme = \"forest\"\nbars = 16\n")
        _ = try rig.execute(.reloadConfig)
        #expect(try rig.execute(.get(key: "theme")) == .string("forest"))
        #expect(try rig.execute(.get(key: "bars")) == .number(16))
        #expect(try rig.execute(.get(key: "caps")) == .bool(false))
    }

    @Test("a broken edit: the previous values stay, the error is in the reply, the status and an event, once")
    func brokenReload() throws {
        let rig = try DaemonUnderTest(config: "[display]\ntheme = \"ocean\"\n")
        _ = try rig.execute(.subscribe(Subscription(kind: .status)))
        _ = rig.takeLines()
        try rig.rewriteConfig("[display]\ntheme = \"ocean\"\nbars = \"many\"\n")
        let problem = "\(rig.configPath):3:1: display.bars must be a whole number from 1 to 1024, not \"many\""
        #expect(throws: ControlFailure(.commandFailed, "config not reloaded: " + problem)) { try rig.execute(.reloadConfig) }
        #expect(try rig.execute(.get(key: "theme")) == .string("ocean"))
        #expect(try rig.execute(.getStatus)?.object?["config_error"] == .string(problem))
        #expect(rig.takeEvents().filter { $0.name == "config-error" }.map { $0.members["message"] } == [.string(problem)])
        // The same problem again is not announced again.
        #expect(throws: ControlFailure.self) { try rig.execute(.reloadConfig) }
        #expect(rig.takeEvents().filter { $0.name == "config-error" }.isEmpty)
        // Fixed: the error goes.
        try rig.rewriteConfig("[display]\ntheme = \"fire\"\n")
        _ = try rig.execute(.reloadConfig)
        #expect(try rig.execute(.getStatus)?.object?["config_error"] == nil)
        #expect(try rig.execute(.get(key: "theme")) == .string("fire"))
    }

    @Test("the command line's values stay over the file's on reload")
    func overridesSurviveReload() throws {
        var overrides = Configuration()
        try overrides.set("theme", to: .string("mono"))
        let rig = try DaemonUnderTest(config: "[display]\ntheme = \"ocean\"\nbars = 20\n", overrides: overrides)
        #expect(try rig.execute(.get(key: "theme")) == .string("mono"))
        try rig.rewriteConfig("[display]\ntheme = \"fire\"\nbars = 24\n")
        _ = try rig.execute(.reloadConfig)
        #expect(try rig.execute(.get(key: "theme")) == .string("mono"))
        #expect(try rig.execute(.get(key: "bars")) == .number(24))
    }

    @Test("a status subscriber hears a change of theme as a status event")
    func statusEvents() throws {
        let rig = try DaemonUnderTest()
        _ = try rig.execute(.subscribe(Subscription(kind: .status)))
        #expect(rig.takeEvents().last?.members["data"]?.object?["theme"] == .string("neon"), "the first status comes at once")
        _ = try rig.execute(.set(key: "theme", value: .string("sunset")))
        #expect(rig.takeEvents().last?.members["data"]?.object?["theme"] == .string("sunset"))
        #expect(rig.daemon.tap == nil, "a status subscriber does not open the tap")
    }

    @Test("the status names no tempo until the beat finder is sure of it: null, and no BPM in ctl status's line, below confidence 0.35; 120 once the clicks' beats are heard")
    func tempoInStatus() throws {
        let rig = try DaemonUnderTest()
        var finder = BeatFinder()
        var told = 0
        func text() -> String { ControlCommandLine.describe(try? rig.execute(.getStatus), for: [.string("get_status")]) ?? "" }
        for buffer in ClickTrack(bpm: 120).buffers(from: 0, count: 8 * 48_000 / 256, heardAt: MonotonicClock.now() - 9) {
            finder.add(buffer) { event in
                // As the tap's pump tells it (heard already: at once).
                rig.daemon.announcer.announce(event, from: .tap)
                told += 1
                let tempo = (try? rig.execute(.getStatus))?.object?["tempo"]?.object
                if event.confidence < 0.35 {
                    #expect(tempo?["bpm"] == .null, "t \(event.time): \(String(describing: tempo))")
                    #expect(!text().contains("BPM"), "\(text())")
                }
            }
        }
        #expect(told >= 10)
        let tempo = try #require(try rig.execute(.getStatus)?.object?["tempo"]?.object)
        #expect(abs((tempo["bpm"]?.number ?? 0) - 120) < 0.5, "\(tempo)")
        #expect(text().contains("120.0 BPM"), "\(text())")
    }

    @Test("requests through the inbox: the reply carries the request's id")
    func inboxReplies() throws {
        let rig = try DaemonUnderTest()
        let reply = try rig.request(#"{"command": ["get", "theme"], "request_id": 42}"#)
        #expect(reply["request_id"] == .number(42) && reply["error"] == .string("success") && reply["data"] == .string("neon"))
        let failed = try rig.request(#"{"command": ["seek", 5, "relative"], "request_id": 43}"#)
        #expect(failed["request_id"] == .number(43) && failed["error"] == .string("error running command"))
    }

    @Test("a screenshot while the window is hidden fails at once")
    func hiddenScreenshot() throws {
        let rig = try DaemonUnderTest()
        let reply = try rig.request(#"{"command": ["screenshot", "/tmp/x.png"], "request_id": 5}"#)
        #expect(reply["error"] == .string("error running command"))
        #expect(reply["message"] == .string("the window is hidden: decibar ctl show first"))
    }

    @Test("protocol_version and quit")
    func versionAndQuit() throws {
        let rig = try DaemonUnderTest()
        #expect(try rig.execute(.protocolVersion) == .number(Double(ControlCommand.currentProtocolVersion)))
        #expect(rig.daemon.stopping == nil)
        _ = try rig.execute(.quit)
        #expect(rig.daemon.stopping == "ctl quit")
    }

    @Test("a signal and a stop through the inbox stop the daemon; a client that leaves is forgotten")
    func inboxItems() throws {
        let rig = try DaemonUnderTest()
        _ = try rig.execute(.subscribe(Subscription(kind: .status)))
        #expect(rig.daemon.hub.count == 1)
        rig.daemon.inbox.post(.clientLeft(rig.client))
        rig.daemon.inbox.post(.stop(signal: "SIGTERM"))
        rig.daemon.handleInbox()
        #expect(rig.daemon.hub.count == 0 && rig.daemon.stopping == "SIGTERM")
    }
}
