import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation

/// Window and look options shared by every command that draws: `live` and `play`.
struct DisplayOptions: ParsableArguments {
    private typealias Key = ConfigSchema.Display

    @Option(name: Key.mode.option, help: Key.mode.help) var mode: VisualMode?
    @Option(name: Key.bars.option, help: Key.bars.help) var bars: Int?
    @Option(name: Key.theme.option, help: Key.theme.help) var theme: String?
    @Option(name: Key.barWidth.option, help: Key.barWidth.help) var barWidth: Int?
    @Option(name: Key.barSpacing.option, help: Key.barSpacing.help) var barSpacing: Int?
    @Option(name: Key.orientation.option, help: Key.orientation.help) var orientation: BarOrientation?
    @Option(name: Key.background.option, help: Key.background.help) var background: BackgroundStyle?
    @Flag(name: Key.borderless.option, inversion: .prefixedNo, help: Key.borderless.help) var borderless: Bool?
    @Option(name: Key.layer.option, help: Key.layer.help) var desktopLayer: DesktopLayer?
    @Option(name: Key.monitor.option, help: Key.monitor.help) var monitor: String?
    @Option(name: Key.anchor.option, help: Key.anchor.help) var anchor: LayerAnchor?
    @Option(name: Key.stripHeight.option, help: Key.stripHeight.help) var stripHeight: Int?
    @Option(name: Key.margin.option, help: Key.margin.help) var margin: Int?
    @Flag(name: Key.caps.option, inversion: .prefixedNo, help: Key.caps.help) var caps: Bool?
    @Flag(name: Key.beatAccent.option, inversion: .prefixedNo, help: Key.beatAccent.help) var beatAccent: Bool?
    @Option(name: Key.hold.option, help: Key.hold.help) var hold: Double?
    @Option(name: Key.fall.option, help: Key.fall.help) var fall: Double?
    @Option(name: Key.ballistics.option, help: Key.ballistics.help) var ballistics: MeterBallistics?
    @Option(name: Key.meterScale.option, help: Key.meterScale.help) var meterScale: MeterScale?
    /// The file's list is `loudness_targets`; the option takes one target and is repeated.
    @Option(name: .customLong("loudness-target"), parsing: .unconditionalSingleValue, help: ArgumentHelp(
        Key.loudnessTargets.key.help + " Repeat the option for more.", valueName: "LUFS"))
    var loudnessTarget: [Double] = []

    @Option(name: Key.spectrumFloor.option, parsing: .unconditional, help: Key.spectrumFloor.help) var spectrumFloor: Double?
    @Flag(name: Key.lowsAtEdges.option, inversion: .prefixedNo, help: Key.lowsAtEdges.help) var lowsAtEdges: Bool?
    @Option(name: Key.shaderDirectory.option, help: Key.shaderDirectory.help) var shaderDir: String?
    @Option(name: Key.size.option, help: Key.size.help) var size: PixelSize?
    @Flag(name: Key.fullscreen.option, inversion: .prefixedNo, help: Key.fullscreen.help) var fullscreen: Bool?
    @Option(name: Key.fps.option, help: Key.fps.help) var displayFps: Double?
    @Option(name: Key.attack.option, help: Key.attack.help) var attack: Double?
    @Option(name: Key.release.option, help: Key.release.help) var release: Double?
    @Option(name: Key.floor.option, parsing: .unconditional, help: Key.floor.help) var floor: Double?

    /// The file's `sensitivity` also takes "auto" and "off"; the option takes a gain, and
    /// `--no-autosens` is "off".
    @Option(name: Key.sensitivity.option, parsing: .unconditional, help: Key.sensitivity.help) var sensitivity: Double?
    @Flag(name: .long, help: "No automatic gain on the bars: the plain mapping of --floor...0 dBFS (the same as --sensitivity 0).")
    var noAutosens = false

    @Option(name: .long, help: ArgumentHelp("Close the window after this many seconds.", valueName: "seconds"))
    var exitAfter: Double?

    @Option(name: .long, help: ArgumentHelp("When closing, save the last frame as a PNG here.", valueName: "path"))
    var screenshot: String?

    @Option(name: .long, help: ArgumentHelp(
        "Record what the window shows, with the audio being shown, to this .mp4 (or .mkv, .mov) when the window closes. Needs the ffmpeg program.",
        valueName: "path"))
    var record: String?

    @Option(name: .long, help: ArgumentHelp("Frames per second of --record, steady whatever the window does.", valueName: "n"))
    var recordFps = 30

    /// One line per frame (time after the swap, mean bar value), for the latency benchmarks.
    @Option(name: .customLong("frame-log"), help: .hidden)
    var frameLog: String?

    func validate() throws {
        _ = try layer()
        if barSpacing != nil && barWidth == nil { throw ValidationError("--bar-spacing needs --bar-width") }
        if sensitivity != nil && noAutosens { throw ValidationError("--sensitivity and --no-autosens cannot be used together") }
        if let shaderDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: shaderDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--shader-dir: no such folder: \(shaderDir.escapingControlCharacters)")
            }
        }
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
        guard (1...120).contains(recordFps) else { throw ValidationError("--record-fps must be between 1 and 120") }
    }

    /// The options given, as a layer over the config file (what was not given is not in it),
    /// each checked by its row of the settings table.
    func layer() throws -> Configuration {
        var layer = Configuration()
        try layer.put(Key.mode, mode.map { .string($0.rawValue) })
        try layer.put(Key.bars, bars.map { .number(Double($0)) })
        try layer.put(Key.theme, theme.map { .string($0) })
        try layer.put(Key.barWidth, barWidth.map { .number(Double($0)) })
        try layer.put(Key.barSpacing, barSpacing.map { .number(Double($0)) })
        try layer.put(Key.orientation, orientation.map { .string($0.rawValue) })
        try layer.put(Key.background, background.map { .string($0.rawValue) })
        try layer.put(Key.borderless, borderless.map { .bool($0) })
        try layer.put(Key.layer, desktopLayer.map { .string($0.rawValue) })
        try layer.put(Key.monitor, monitor.map { .string($0) })
        try layer.put(Key.anchor, anchor.map { .string($0.rawValue) })
        try layer.put(Key.stripHeight, stripHeight.map { .number(Double($0)) })
        try layer.put(Key.margin, margin.map { .number(Double($0)) })
        try layer.put(Key.caps, caps.map { .bool($0) })
        try layer.put(Key.beatAccent, beatAccent.map { .bool($0) })
        try layer.put(Key.hold, hold.map { .number($0) })
        try layer.put(Key.fall, fall.map { .number($0) })
        try layer.put(Key.ballistics, ballistics.map { .string($0.rawValue) })
        try layer.put(Key.meterScale, meterScale.map { .string($0.rawValue) })
        do {
            if !loudnessTarget.isEmpty { try layer.set(Key.loudnessTargets.key, to: .array(loudnessTarget.map(JSONValue.number))) }
        } catch {
            throw ValidationError("--loudness-target must be between -59 and 0 LUFS")
        }
        try layer.put(Key.spectrumFloor, spectrumFloor.map { .number($0) })
        try layer.put(Key.lowsAtEdges, lowsAtEdges.map { .bool($0) })
        try layer.put(Key.shaderDirectory, shaderDir.map { .string($0) })
        try layer.put(Key.size, size.map { .string($0.text) })
        try layer.put(Key.fullscreen, fullscreen.map { .bool($0) })
        try layer.put(Key.fps, displayFps.map { .number($0) })
        try layer.put(Key.attack, attack.map { .number($0) })
        try layer.put(Key.release, release.map { .number($0) })
        try layer.put(Key.floor, floor.map { .number($0) })
        try layer.put(Key.sensitivity, sensitivity.map { .number($0) } ?? (noAutosens ? .string("off") : nil))
        return layer
    }

    /// What the app takes: the configuration (the file, then these options over it), and what only
    /// the command line says (exit, screenshot, recording).
    func settings(over file: Configuration) throws -> DisplaySettings {
        var settings = DisplaySettings(configuration: file.merging(try layer()))
        settings.exitAfter = exitAfter
        settings.screenshot = screenshot
        settings.record = record
        settings.recordFPS = recordFps
        settings.frameLog = frameLog
        return settings
    }
}
