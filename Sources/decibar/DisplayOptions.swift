import ArgumentParser
import DecibarCore
import Foundation

/// Window and bar options shared by every command that draws: `live` and `play`.
struct DisplayOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Number of bars, 1 to 1024.", valueName: "n"))
    var bars = 48

    @Option(name: .long, help: ArgumentHelp("Window size in pixels.", valueName: "WxH"))
    var size = WindowSize(width: 1280, height: 720)

    @Flag(name: .long, help: "Start fullscreen (f switches at run time).")
    var fullscreen = false

    @Option(name: .long, help: ArgumentHelp("Rise time constant of the bars in ms (default: the original 0.9/0.1 per 60 Hz frame, 158 ms).", valueName: "ms"))
    var attack: Double?

    @Option(name: .long, help: ArgumentHelp("Fall time constant of the bars in ms (default 158 ms).", valueName: "ms"))
    var release: Double?

    @Option(name: .long, help: ArgumentHelp("Level shown as an empty bar, in dBFS.", valueName: "dB"))
    var floor: Float = -60

    @Option(name: .long, help: ArgumentHelp("Close the window after this many seconds.", valueName: "seconds"))
    var exitAfter: Double?

    @Option(name: .long, help: ArgumentHelp("When closing, save the last frame as a PNG here.", valueName: "path"))
    var screenshot: String?

    /// One line per frame (time after the swap, mean bar value), for the latency benchmarks.
    @Option(name: .customLong("frame-log"), help: .hidden)
    var frameLog: String?

    func validate() throws {
        guard (1...1024).contains(bars) else { throw ValidationError("--bars must be between 1 and 1024") }
        if let exitAfter, !(exitAfter.isFinite && exitAfter > 0) {
            throw ValidationError("--exit-after must be a positive number of seconds")
        }
        for (name, value) in [("--attack", attack), ("--release", release)] {
            if let value, !(value.isFinite && value >= 0 && value <= 60_000) {
                throw ValidationError("\(name) must be between 0 and 60000 ms")
            }
        }
        guard floor.isFinite, floor < -1, floor >= -160 else {
            throw ValidationError("--floor must be between -160 and -1 dBFS")
        }
        if let screenshot { try Self.checkWritable(screenshot, option: "--screenshot") }
        if let frameLog { try Self.checkWritable(frameLog, option: "--frame-log") }
    }

    var smoothing: SmoothingTimes {
        SmoothingTimes(attack: attack.map { $0 / 1000 } ?? SmoothingTimes.seedTimeConstant,
                       release: release.map { $0 / 1000 } ?? SmoothingTimes.seedTimeConstant)
    }

    var levelScale: LevelScale { LevelScale(floorDB: floor, ceilingDB: 0) }

    /// Fails early on a path that cannot be written, instead of after the window closes.
    static func checkWritable(_ path: String, option: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let folder = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("\(option): no such folder: \(folder)")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw ValidationError("\(option): cannot write in \(folder)")
        }
    }
}
