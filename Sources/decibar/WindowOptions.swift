import ArgumentParser
import DecibarApp
import DecibarCore

/// What only the command line says of a window (`live` and `play`): when it closes and what it
/// saves. `render` knows them only to say what to use instead.
struct WindowOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Close the window after this many seconds.", valueName: "seconds"))
    var exitAfter: Double?

    @Option(name: .long, help: ArgumentHelp("When closing, save the last frame as a PNG here.", valueName: "path"))
    var screenshot: String?

    @Option(name: .long, help: ArgumentHelp(
        "Record what the window shows, with the audio being shown, to this .mp4 (or .mkv, .mov) when the window closes. Needs the ffmpeg program.",
        valueName: "path"))
    var record: String?

    @Option(name: .long, help: ArgumentHelp("Frames per second of --record, steady whatever the window does (default 30).", valueName: "n"))
    var recordFps: Int?

    /// One line per frame (time after the swap, mean bar value), for the latency benchmarks.
    @Option(name: .customLong("frame-log"), help: .hidden)
    var frameLog: String?

    /// Checked by the commands that take them (render refuses them instead).
    func check() throws {
        if let exitAfter, !(exitAfter.isFinite && exitAfter > 0) {
            throw ValidationError("--exit-after must be a positive number of seconds")
        }
        if let screenshot { try checkOutput(screenshot, option: "--screenshot", kind: .file) }
        if let frameLog { try checkOutput(frameLog, option: "--frame-log", kind: .file) }
        if let record {
            guard ["mp4", "mkv", "mov"].contains(OutputPath.fileExtension(of: record)) else {
                throw ValidationError("--record must name an .mp4, .mkv or .mov file")
            }
            try checkOutput(record, option: "--record", kind: .file)
        }
        if let recordFps, !(1...120).contains(recordFps) { throw ValidationError("--record-fps must be between 1 and 120") }
    }

    /// The window the configuration describes, with what only the command line says.
    func settings(_ configuration: Configuration) -> DisplaySettings {
        var settings = DisplaySettings(configuration: configuration)
        settings.exitAfter = exitAfter
        settings.screenshot = screenshot
        settings.record = record
        if let recordFps { settings.recordFPS = recordFps }
        settings.frameLog = frameLog
        return settings
    }
}
