import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Ctl: ParsableCommand {
        /// Its name, read without building its configuration (a hotkey's `ctl` starts with this alone).
        static let name = "ctl"

        static let configuration = CommandConfiguration(
            commandName: name,
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
            try ControlCommandLine.send(commandWords, socket: socket, json: wantsJSON)
        }

        /// `ctl`'s everyday forms read without the reflection ArgumentParser starts with (a hotkey
        /// runs them); nil for anything the full parser must answer.
        static func quickRun(_ arguments: [String]) -> (() throws -> Void)? {
            guard let (socket, json, words) = ControlCommandLine.quickForm(arguments) else { return nil }
            return { try ControlCommandLine.send(words, socket: socket, json: json) }
        }
    }
}
