import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation

/// Window and look options shared by every command that draws: `live` and `play`.
struct DisplayOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "What to draw: bars (symmetric level bars), spectrum (frequency bands, left channel on the left, right on the right) or meter (RMS and peak per channel). m switches at run time.",
        valueName: "bars|spectrum|meter"))
    var mode: VisualMode?

    @Option(name: .long, help: ArgumentHelp("Number of bars, 1 to 1024 (default 48, or as many as fit with --bar-width). In spectrum mode, half are the left channel's bands and half the right's.", valueName: "n"))
    var bars: Int?

    @Option(name: .long, help: ArgumentHelp("Colors: \(BarTheme.presetNames.joined(separator: ", ")).", valueName: "name"))
    var theme: String?

    @Option(name: .long, help: ArgumentHelp("Width of each bar in pixels; bars then fill the window at this width (cava's layout).", valueName: "px"))
    var barWidth: Int?

    @Option(name: .long, help: ArgumentHelp("Gap between bars in pixels, with --bar-width (default a third of the width).", valueName: "px"))
    var barSpacing: Int?

    @Option(name: .long, help: ArgumentHelp("Where bars grow from.", valueName: "center|bottom|top"))
    var orientation: BarOrientation?

    @Option(name: .long, help: ArgumentHelp(
        "opaque (the theme's color), chroma (pure green #00FF00, for keying out in a video editor) or transparent (needs a compositing window manager; screenshots keep the alpha).",
        valueName: "opaque|chroma|transparent"))
    var background: BackgroundStyle?

    @Flag(name: .long, inversion: .prefixedNo, help: "A window without a title bar or frame.")
    var borderless: Bool?

    @Flag(name: .long, inversion: .prefixedNo, help: "Peak caps above the bars in bars and spectrum modes: they hold, then fall (--hold, --fall).")
    var caps: Bool?

    @Option(name: .long, help: ArgumentHelp("How long peak caps hold, in ms.", valueName: "ms"))
    var hold: Double?

    @Option(name: .long, help: ArgumentHelp("How fast peak caps fall after holding, in dB per second.", valueName: "dB/s"))
    var fall: Float?

    @Option(name: .long, help: ArgumentHelp("Meter peak bar: digital (falls at 40 dB/s) or iec (IEC 60268-18: 20 dB in 1.7 s).", valueName: "digital|iec"))
    var ballistics: MeterBallistics?

    @Option(name: .long, help: ArgumentHelp("Meter scale: dbfs (-70...0, levels first) or lufs (-59...0 with ticks at the -23 and -14 LUFS targets).", valueName: "dbfs|lufs"))
    var meterScale: MeterScale?

    @Option(name: .long, parsing: .unconditionalSingleValue, help: ArgumentHelp(
        "Mark a loudness target on the meter's loudness bars, in LUFS (-59 to 0); repeat for more (e.g. -23 for EBU R128, -14 for streaming).",
        valueName: "LUFS"))
    var loudnessTarget: [Double] = []

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Spectrum level drawn as an empty bar, in dB (the top is 0 dB).", valueName: "dB"))
    var spectrumFloor: Float?

    @Flag(name: .long, inversion: .prefixedNo, help: "Spectrum: put the low frequencies at the window's edges instead of the center.")
    var lowsAtEdges: Bool?

    @Option(name: .long, help: ArgumentHelp(
        "Draw with your own fragment shaders from this folder (*.frag; s switches between them). Saving a file reloads it; one that does not compile shows the compiler's message and the last good one stays.",
        valueName: "folder"))
    var shaderDir: String?

    @Option(name: .long, help: ArgumentHelp("Window size in pixels.", valueName: "WxH"))
    var size: WindowSize?

    @Flag(name: .long, inversion: .prefixedNo, help: "Start fullscreen (f switches at run time).")
    var fullscreen: Bool?

    @Option(name: .long, help: ArgumentHelp("Rise time constant of the bars in ms (default: the original 0.9/0.1 per 60 Hz frame, 158 ms).", valueName: "ms"))
    var attack: Double?

    @Option(name: .long, help: ArgumentHelp("Fall time constant of the bars in ms (default 158 ms).", valueName: "ms"))
    var release: Double?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Level shown as an empty bar, in dBFS.", valueName: "dB"))
    var floor: Float?

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp(
        "A fixed gain on the bars, in dB, -40 to 40, instead of the automatic one (which keeps the tallest bars just under the top whatever the music's loudness, and holds in silence). 0 is the plain mapping of --floor...0 dBFS.",
        valueName: "dB"))
    var sensitivity: Float?

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
        if let bars, !(1...1024).contains(bars) { throw ValidationError("--bars must be between 1 and 1024") }
        if let theme, BarTheme.preset(named: theme) == nil {
            throw ValidationError("--theme must be one of \(BarTheme.presetNames.joined(separator: ", "))")
        }
        if let barWidth, !(1...512).contains(barWidth) { throw ValidationError("--bar-width must be between 1 and 512 pixels") }
        if let barSpacing, !(0...512).contains(barSpacing) { throw ValidationError("--bar-spacing must be between 0 and 512 pixels") }
        if barSpacing != nil && barWidth == nil { throw ValidationError("--bar-spacing needs --bar-width") }
        if let hold, !(hold.isFinite && (0...60_000).contains(hold)) { throw ValidationError("--hold must be between 0 and 60000 ms") }
        if let fall, !(fall.isFinite && fall > 0 && fall <= 1000) { throw ValidationError("--fall must be between 0 and 1000 dB/s") }
        if let spectrumFloor, !(spectrumFloor.isFinite && spectrumFloor >= -160 && spectrumFloor <= -10) {
            throw ValidationError("--spectrum-floor must be between -160 and -10 dB")
        }
        if let shaderDir {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: shaderDir, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--shader-dir: no such folder: \(shaderDir.escapingControlCharacters)")
            }
        }
        if let exitAfter, !(exitAfter.isFinite && exitAfter > 0) {
            throw ValidationError("--exit-after must be a positive number of seconds")
        }
        for (name, value) in [("--attack", attack), ("--release", release)] {
            if let value, !(value.isFinite && value >= 0 && value <= 60_000) {
                throw ValidationError("\(name) must be between 0 and 60000 ms")
            }
        }
        if let sensitivity {
            guard sensitivity.isFinite, (-40...40).contains(sensitivity) else { throw ValidationError("--sensitivity must be between -40 and 40 dB") }
            guard !noAutosens else { throw ValidationError("--sensitivity and --no-autosens cannot be used together") }
        }
        if let floor, !(floor.isFinite && floor < -1 && floor >= -160) {
            throw ValidationError("--floor must be between -160 and -1 dBFS")
        }
        for target in loudnessTarget where !(target.isFinite && target >= -59 && target <= 0) {
            throw ValidationError("--loudness-target must be between -59 and 0 LUFS")
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

    /// The options given, as a layer over the config file (what was not given is not in it).
    var layer: Configuration {
        var layer = Configuration()
        func put(_ path: String, _ value: JSONValue?) {
            // Every value was checked by `validate`; the schema's ranges are the same.
            if let value { try? layer.set(path, to: value) }
        }
        put("display.mode", mode.map { .string($0.rawValue) })
        put("display.bars", bars.map { .number(Double($0)) })
        put("display.theme", theme.map { .string($0) })
        put("display.bar_width", barWidth.map { .number(Double($0)) })
        put("display.bar_spacing", barSpacing.map { .number(Double($0)) })
        put("display.orientation", orientation.map { .string($0.rawValue) })
        put("display.background", background.map { .string($0.rawValue) })
        put("display.borderless", borderless.map { .bool($0) })
        put("display.caps", caps.map { .bool($0) })
        put("display.hold", hold.map { .number($0) })
        put("display.fall", fall.map { .number(Double($0)) })
        put("display.ballistics", ballistics.map { .string($0.rawValue) })
        put("display.meter_scale", meterScale.map { .string($0.rawValue) })
        if !loudnessTarget.isEmpty { put("display.loudness_targets", .array(loudnessTarget.map(JSONValue.number))) }
        put("display.spectrum_floor", spectrumFloor.map { .number(Double($0)) })
        put("display.lows_at_edges", lowsAtEdges.map { .bool($0) })
        put("display.shader_dir", shaderDir.map { .string($0) })
        put("display.size", size.map { .string($0.text) })
        put("display.fullscreen", fullscreen.map { .bool($0) })
        put("display.attack", attack.map { .number($0) })
        put("display.release", release.map { .number($0) })
        put("display.floor", floor.map { .number(Double($0)) })
        put("display.sensitivity", sensitivity.map { .number(Double($0)) } ?? (noAutosens ? .string("off") : nil))
        return layer
    }

    /// What the app takes: the configuration (the file, then these options over it), and what only
    /// the command line says (exit, screenshot, recording).
    func settings(over file: Configuration) -> DisplaySettings {
        var settings = DisplaySettings(configuration: file.merging(layer))
        settings.exitAfter = exitAfter
        settings.screenshot = screenshot
        settings.record = record
        settings.recordFPS = recordFps
        settings.frameLog = frameLog
        return settings
    }
}
