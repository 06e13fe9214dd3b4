import ArgumentParser
import DecibarApp
import DecibarCore

/// A window's hidden option: one line per frame (time after the swap, mean bar value), for the
/// latency benchmarks. What else only a command line says of a window is `WindowRows`.
struct WindowOptions: ParsableArguments {
    @Option(name: .customLong("frame-log"), help: .hidden)
    var frameLog: String?

    /// The paths the window writes, checked as the command line is read (`inputs` are never replaced).
    func check(_ settings: Configuration, inputs: [String] = []) throws {
        do { try WindowRows.check(settings, inputs: inputs) } catch let failure as CommandFailure { throw ValidationError(failure.message) }
        if let frameLog { try checkOutput(frameLog, option: "--frame-log", kind: .file) }
    }

    /// The window the configuration describes, with what only the command line says.
    func settings(_ configuration: Configuration) -> DisplaySettings {
        var settings = WindowRows.settings(configuration)
        settings.frameLog = frameLog
        return settings
    }
}
