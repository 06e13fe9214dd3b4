import ArgumentParser
import DecibarApp
import Foundation

/// `decibar`: a real-time audio level visualizer.
struct Decibar: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decibar",
        abstract: "Real-time audio level visualizer for PulseAudio and PipeWire.",
        discussion: CommandHelp.overview,
        version: "0.1.0",
        subcommands: [Live.self, Play.self, Term.self, Render.self, Spectrogram.self, Levels.self, Devices.self, PeaksExport.self, Scale.self, Daemon.self, Ctl.self, Config.self, Keys.self],
        defaultSubcommand: Live.self)
}

extension Decibar {
    /// What a failure says (one line, or nothing when it was said already) and the exit status.
    static func report(for error: any Error) -> (line: String?, status: Int32) {
        if let failure = error as? CommandFailure {
            return (failure.message.isEmpty ? nil : failure.message, failure.status)
        }
        let code = exitCode(for: error)
        if error is ExitCode { return (nil, code.rawValue) }
        let message = self.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
        return (message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message, code == .validationFailure ? 2 : 1)
    }
}

@main
enum Main {
    static func main() {
        ProcessSignals.prepare()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            // What hotkeys and status bars run starts without reflecting over every command.
            if arguments == ["--version"] {
                print(Decibar.configuration.version)
                return
            }
            if arguments.first == Decibar.Ctl.name {
                let rest = Array(arguments.dropFirst())
                if let run = Decibar.Ctl.quickRun(rest) {
                    try run()
                    return
                }
                var command = try Decibar.Ctl.parseAsRoot(rest)
                try command.run()
                return
            }
            // The modes are registered before the options that name them are made.
            VisualCatalog.prepare()
            var command = try Decibar.parseAsRoot()
            try command.run()
        } catch {
            exit(reporting: error)
        }
    }

    /// Help and version go to stdout with status 0; everything else is one line on stderr.
    /// Bad command-line values exit with 2, runtime failures with 1.
    static func exit(reporting error: any Error) -> Never {
        // The app's own failure is said without building the command tree (a hotkey's `ctl`).
        if !(error is CommandFailure), Decibar.exitCode(for: error) == .success {
            print(Decibar.fullMessage(for: error))
            Foundation.exit(0)
        }
        let (line, status) = Decibar.report(for: error)
        if let line { writeError(line) }
        Foundation.exit(status)
    }
}
