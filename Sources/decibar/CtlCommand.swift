import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Ctl: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ctl",
            abstract: "Tell the running daemon what to do, or ask it how it is.",
            discussion: CommandHelp.ctl)

        @Option(name: .long, help: ArgumentHelp("The daemon's socket (default $XDG_RUNTIME_DIR/decibar/control.sock).", valueName: "path"))
        var socket: String?

        @Flag(name: .long, help: "Print the reply's data as one JSON line.")
        var json = false

        @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The command and its arguments.", valueName: "command"))
        var words: [String] = []

        /// `--json` may come after the command too (`ctl status --json`).
        private var commandWords: [String] { words.filter { $0 != "--json" } }
        private var wantsJSON: Bool { json || words.contains("--json") }

        func validate() throws {
            let words = commandWords
            // The command's words are passed through as they are, so `--help` lands among them.
            if let first = words.first, ["--help", "-h", "help"].contains(first) { throw CleanExit.helpRequest(self) }
            guard !words.isEmpty else { throw ValidationError("name a command, such as 'decibar ctl status' (see --help)") }
            do {
                _ = try ControlCommandLine.command(from: words)
            } catch {
                throw ValidationError(error.message)
            }
        }

        func run() throws {
            try Self.perform(socket: socket, wantsJSON: wantsJSON, words: commandWords)
        }

        static func perform(socket: String?, wantsJSON: Bool, words: [String]) throws {
            let command = try ControlCommandLine.command(from: words)
            let client = try DaemonClient.connect(socket: socket)
            let reply: ControlConnectionClient.Reply
            do {
                reply = try client.request(command)
            } catch {
                throw CommandFailure(message: DaemonClient.describe(error))
            }
            guard reply.succeeded else { throw CommandFailure(message: reply.message ?? reply.error) }
            if wantsJSON {
                writeLine((reply.data ?? .null).text)
            } else if let text = ControlCommandLine.describe(reply.data, for: command) {
                writeLine(text)
            }
        }

        /// `ctl`'s everyday forms (`[--socket PATH] [--json] COMMAND...`) read without the
        /// reflection ArgumentParser starts with: a hotkey runs them. Anything else (help, an
        /// unknown option, no command) is nil, and the full parser answers it.
        static func quickRun(_ arguments: [String]) -> (() throws -> Void)? {
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
            let wantsJSON = json || arguments[index...].contains("--json")
            return { try perform(socket: socket, wantsJSON: wantsJSON, words: Array(words)) }
        }
    }
}
