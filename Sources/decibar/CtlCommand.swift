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
            let command = try ControlCommandLine.command(from: commandWords)
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
    }
}
