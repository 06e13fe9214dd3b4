import DecibarCore
import Foundation

/// How `decibar ctl`'s words become protocol commands, and replies become lines.
public enum ControlCommandLine {
    /// A mistake in the words is a usage error (status 2), as a bad option is.
    public static func command(from words: [String]) throws(CommandFailure) -> [JSONValue] {
        let name = words[0]
        let rest = Array(words.dropFirst())
        func none() throws(CommandFailure) {
            guard rest.isEmpty else { throw usage("\(name) takes no arguments") }
        }
        switch name {
        case "status": try none(); return [.string("get_status")]
        case "toggle": try none(); return [.string("toggle_window")]
        case "toggle-pause": try none(); return [.string("cycle_pause")]
        case "reload": try none(); return [.string("reload_config")]
        case "version": try none(); return [.string("protocol_version")]
        case "mode":
            // The modes are named only here: a hotkey's `ctl status` registers none.
            VisualCatalog.prepare()
            // A mode that is not there is said here, so a key bound to one fails `config check`.
            guard rest.count == 1, ["next", "previous"].contains(rest[0]) || VisualMode(rawValue: rest[0]) != nil else {
                throw usage("mode takes next, previous or one of \(VisualMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return [.string("mode"), .string(rest[0])]
        case "shader":
            guard rest == ["next"] else { throw usage("shader takes next") }
            return [.string("shader"), .string("next")]
        case "volume", "rate", "pitch":
            if name == "rate" && rest == ["normal"] { return [.string("rate"), .string("normal")] }
            guard rest.count == 1, let (amount, relative) = adjustment(rest[0]) else {
                throw usage("\(name) takes a number: +N or -N moves it, N sets it" + (name == "rate" ? "; normal is rate 1 and pitch 0" : ""))
            }
            return [.string(name), .number(amount), .string(relative ? "relative" : "absolute")]
        case "cycle":
            guard rest.count == 1 else { throw usage("cycle takes a key, such as 'cycle loop'") }
            return [.string("cycle"), .string(rest[0])]
        case "set":
            guard rest.count >= 2 else { throw usage("set takes a key and a value, such as 'set theme fire'") }
            // Several words are a list (loudness_targets -23 -14).
            return [.string("set"), .string(rest[0]), rest.count == 2 ? .string(rest[1]) : .string(rest.dropFirst().joined(separator: ","))]
        case "get":
            guard rest.count == 1 else { throw usage("get takes one key") }
            return [.string("get"), .string(rest[0])]
        case "open":
            let append = rest.first == "--append"
            let files = append ? Array(rest.dropFirst()) : rest
            guard !files.isEmpty else { throw usage("open takes one or more files") }
            // The daemon has its own working folder: send full paths.
            let cwd = FileManager.default.currentDirectoryPath
            let paths = files.map { $0.hasPrefix("/") || MediaLocation.isRemote($0) ? $0 : (cwd as NSString).appendingPathComponent($0) }
            return [.string("open"), .array(paths.map(JSONValue.string)), .string(append ? "append" : "replace")]
        case "screenshot":
            guard rest.count == 1 else { throw usage("screenshot takes the PNG file to write") }
            let path = rest[0].hasPrefix("/") ? rest[0] : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(rest[0])
            return [.string("screenshot"), .string(path)]
        case "seek":
            guard rest.count == 1, let (seconds, relative) = seekTarget(rest[0]) else {
                throw usage("seek takes a time: 90 or 1:30 (absolute), +5 or -5 (relative)")
            }
            return [.string("seek"), .number(seconds), .string(relative ? "relative" : "absolute")]
        case "zoom":
            guard rest.count == 1 else { throw usage("zoom takes in, out or a factor (1 shows the whole track)") }
            if rest[0] == "in" || rest[0] == "out" { return [.string("zoom"), .string(rest[0])] }
            guard let factor = Double(rest[0]) else { throw usage("zoom takes in, out or a factor (1 shows the whole track)") }
            return [.string("zoom"), .number(factor)]
        case "ab-loop":
            if rest.count == 1, ["off", "a", "b"].contains(rest[0]) { return [.string("ab_loop"), .string(rest[0])] }
            guard rest.count == 2, let start = seekTarget(rest[0]), let end = seekTarget(rest[1]), !start.1, !end.1 else {
                throw usage("ab-loop takes a start and an end (90 or 1:30), a or b (at the playhead), or off")
            }
            return [.string("ab_loop"), .number(start.0), .number(end.0)]
        case "preset":
            // Without a word: the name of the preset shown.
            if rest.isEmpty { return [.string("preset")] }
            guard rest.count == 1 else { throw usage("preset takes next, previous, random, lock, unlock, toggle-lock, toggle-favourite, or a preset's name or path (nothing: the preset shown)") }
            // The daemon has its own working folder: a path goes whole.
            let word = rest[0].contains("/") && !rest[0].hasPrefix("/")
                ? (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(rest[0]) : rest[0]
            return [.string("preset"), .string(word)]
        case "show", "hide", "play", "pause", "stop", "next", "previous", "quit", "fullscreen", "close":
            try none()
            return [.string(name)]
        default:
            // Any protocol command, arguments as JSON where they parse (numbers, arrays), else text.
            guard ControlCommand.names.contains(name) else {
                let suggestion = Spelling.closest(to: name, among: commandWords + ControlCommand.names).map { " (did you mean \($0)?)" } ?? ""
                throw usage("no command '\(name)'\(suggestion); see 'decibar ctl --help'")
            }
            return [.string(name)] + rest.map { JSONValue(parsing: Array($0.utf8)) ?? .string($0) }
        }
    }

    /// The words of ctl's own commands (any protocol command's name is taken too).
    static let commandWords = ["status", "show", "hide", "toggle", "close", "fullscreen", "mode", "shader", "set", "get", "cycle", "open", "play",
                        "pause", "toggle-pause", "stop", "seek", "next", "previous", "chapter", "volume", "rate", "pitch", "zoom",
                        "ab-loop", "preset", "screenshot", "reload", "version", "quit", "keys", "stats", "picker"]

    /// A command's words from one line: split at spaces, with "double quotes" around a word that
    /// holds spaces (a preset's name).
    public static func words(of line: String) -> [String] { line.quotedWords }

    /// `+5` and `-5` move (relative); `5` sets.
    static func adjustment(_ text: String) -> (Double, Bool)? {
        guard let amount = Double(text), amount.isFinite else { return nil }
        return (amount, text.hasPrefix("+") || text.hasPrefix("-"))
    }

    /// Sends one command and prints its reply: a line (or, with `json`, the reply's data as JSON).
    public static func send(_ words: [String], socket: String?, json: Bool) throws {
        let command = try command(from: words)
        let client = try DaemonClient.connect(socket: socket)
        let reply: ControlConnectionClient.Reply
        do {
            reply = try client.request(command)
        } catch {
            throw CommandFailure(message: DaemonClient.describe(error))
        }
        guard reply.succeeded else { throw CommandFailure(message: reply.message ?? reply.error) }
        if json {
            writeLine((reply.data ?? .null).text)
        } else if let text = describe(reply.data, for: command) {
            writeLine(text)
        }
    }

    /// `ctl`'s everyday form, `[--socket PATH] [--json] COMMAND...` (`--json` may also come after
    /// the command); nil for anything else (help, another option, no command).
    public static func quickForm(_ arguments: [String]) -> (socket: String?, json: Bool, words: [String])? {
        var socket: String?
        var json = false
        var index = arguments.startIndex
        while index < arguments.endIndex, arguments[index].hasPrefix("-") {
            let word = arguments[index]
            if word == "--json" {
                json = true
            } else if word == "--socket", index + 1 < arguments.endIndex {
                index += 1
                socket = arguments[index]
            } else if word.hasPrefix("--socket="), word.count > "--socket=".count {
                socket = String(word.dropFirst("--socket=".count))
            } else {
                return nil
            }
            index += 1
        }
        let words = arguments[index...].filter { $0 != "--json" }
        guard let first = words.first, !["--help", "-h", "help"].contains(first) else { return nil }
        return (socket, json || arguments[index...].contains("--json"), Array(words))
    }

    private static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }

    /// `90`, `1:30`, `1:02:03` are absolute; `+5`, `-5`, `+1:00` relative.
    static func seekTarget(_ text: String) -> (Double, Bool)? {
        var body = Substring(text)
        var sign = 0.0
        if body.first == "+" { sign = 1; body = body.dropFirst() } else if body.first == "-" { sign = -1; body = body.dropFirst() }
        var seconds = 0.0
        for part in body.split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value.isFinite, value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        return sign == 0 ? (seconds, false) : (sign * seconds, true)
    }

    /// One line for a reply; nil when there is nothing to say (a command that just happened).
    public static func describe(_ data: JSONValue?, for command: [JSONValue]) -> String? {
        guard let data else { return nil }
        if command.first?.string == "get_status", case .object(let status) = data { return describeStatus(status) }
        if let text = data.string { return text }
        return data.text
    }

    private static func describeStatus(_ status: [String: JSONValue]) -> String {
        var parts: [String] = []
        var window = "window \(status["window"]?.string ?? "?")"
        // A picture slower than the display is shown at a steady part of its rate: said then.
        if let shown = status["frame_rate"]?.number, let display = status["refresh_rate"]?.number, shown < display * 0.99 {
            window += String(format: " at %g frames/s (display %g)", shown, display)
        }
        parts.append(window)
        parts.append((status["mode"]?.string ?? "?") + (status["preset"]?.string.map { " (preset \($0))" } ?? ""))
        if case .object(let tap)? = status["tap"] {
            let state = tap["state"]?.string ?? "?"
            parts.append("tap \(state)" + ((tap["device"] ?? tap["heard"])?.string.map { " (\($0))" } ?? "")
                         + (tap["backend"]?.string.map { " via \($0)" } ?? ""))
        }
        if case .object(let player)? = status["player"] {
            var line = "player \(player["state"]?.string ?? "idle")"
            if let file = player["file"]?.string, let index = player["index"]?.number, case .array(let list)? = player["playlist"] {
                line += " \(Int(index) + 1)/\(list.count) \((file as NSString).lastPathComponent)"
                if let position = player["position"]?.number, let duration = player["duration"]?.number {
                    line += " \(TimeLabel.text(seconds: position))/\(TimeLabel.text(seconds: duration))"
                }
            }
            // Only when away from normal, as the window shows it.
            let speed = RateAndPitch(rate: player["rate"]?.number ?? 1, pitch: player["pitch"]?.number ?? 0)
            if !speed.isNormal { line += " " + speed.label }
            parts.append(line)
        }
        if case .object(let tempo)? = status["tempo"], let bpm = tempo["bpm"]?.number {
            parts.append(String(format: "%.1f BPM (confidence %.2f)", bpm, tempo["confidence"]?.number ?? 0))
        }
        if let subscribers = status["subscribers"]?.number { parts.append("\(Int(subscribers)) subscriber\(subscribers == 1 ? "" : "s")") }
        if let problem = status["config_error"]?.string { parts.append("config error: \(problem)") }
        var line = parts.joined(separator: "  ·  ")
        // One line more per output: where it sends and how much it has sent.
        if case .object(let outputs)? = status["outputs"], case .array(let sending)? = outputs["sending"] {
            for output in sending.compactMap(\.string) { line += "\n  sending: " + output }
        }
        return line
    }
}
