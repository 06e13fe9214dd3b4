import ArgumentParser
import DecibarApp
import DecibarCore

/// How the waveform scrubber (and a video's picture) look: shared by `play` and `render`.
struct ScrubberOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Width of the scrubber's bars in pixels.", valueName: "px"))
    var scrubberBarWidth: Int?

    @Option(name: .long, help: ArgumentHelp("Space between the scrubber's bars in pixels.", valueName: "px"))
    var scrubberBarSpacing: Int?

    @Option(name: .long, help: ArgumentHelp("How a scrubber bar sums up the audio under it: max (never hides a peak) or average (smoother).", valueName: "max|average"))
    var scrubberFilter: String?

    @Flag(name: .long, inversion: .prefixedNo, help: "Start the scrubber in dB mode (d switches at run time).")
    var decibels: Bool?

    @Option(name: .long, help: ArgumentHelp("Noise floor of the dB mode: -50, -70 or -90 dB.", valueName: "dB"))
    var noiseFloor: Float?

    @Flag(name: .long, inversion: .prefixedNo, help: "Show the played part as a filled region instead of a playhead line.")
    var fillIndicator: Bool?

    @Option(name: .long, help: ArgumentHelp("A video file's picture: under (behind the bars, letterboxed), above (in a panel above the bars) or off (the audio alone).",
                                            valueName: "under|above|off"))
    var videoLayout: VideoLayout?

    func validate() throws {
        if let scrubberBarWidth, !(1...64).contains(scrubberBarWidth) { throw ValidationError("--scrubber-bar-width must be between 1 and 64") }
        if let scrubberBarSpacing, !(0...64).contains(scrubberBarSpacing) { throw ValidationError("--scrubber-bar-spacing must be between 0 and 64") }
        if let scrubberFilter, ScrubberFilter(rawValue: scrubberFilter) == nil { throw ValidationError("--scrubber-filter must be max or average") }
        if let noiseFloor, !ScrubberScale.noiseFloors.contains(noiseFloor) { throw ValidationError("--noise-floor must be -50, -70 or -90") }
    }

    /// The options given, as a layer over the config file.
    var layer: Configuration {
        var layer = Configuration()
        func put(_ path: String, _ value: JSONValue?) {
            if let value { try? layer.set(path, to: value) }
        }
        put("player.scrubber_bar_width", scrubberBarWidth.map { .number(Double($0)) })
        put("player.scrubber_bar_spacing", scrubberBarSpacing.map { .number(Double($0)) })
        put("player.scrubber_filter", scrubberFilter.map { .string($0) })
        put("player.decibels", decibels.map { .bool($0) })
        put("player.noise_floor", noiseFloor.map { .number(Double($0)) })
        put("player.fill_indicator", fillIndicator.map { .bool($0) })
        put("player.video_layout", videoLayout.map { .string($0.rawValue) })
        return layer
    }

    /// What the app takes: the file's values with these options over them.
    func settings(over file: Configuration) -> ScrubberSettings {
        ScrubberSettings(configuration: file.merging(layer))
    }
}
