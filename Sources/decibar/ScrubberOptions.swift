import ArgumentParser
import DecibarApp
import DecibarCore

/// How the waveform scrubber looks: shared by `play` and `render`.
struct ScrubberOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Width of the scrubber's bars in pixels.", valueName: "px"))
    var scrubberBarWidth = 3

    @Option(name: .long, help: ArgumentHelp("Space between the scrubber's bars in pixels.", valueName: "px"))
    var scrubberBarSpacing = 2

    @Option(name: .long, help: ArgumentHelp("How a scrubber bar sums up the audio under it: max (never hides a peak) or average (smoother).", valueName: "max|average"))
    var scrubberFilter = "max"

    @Flag(name: .long, help: "Start the scrubber in dB mode (d switches at run time).")
    var decibels = false

    @Option(name: .long, help: ArgumentHelp("Noise floor of the dB mode: -50, -70 or -90 dB.", valueName: "dB"))
    var noiseFloor: Float = ScrubberScale.defaultNoiseFloor

    @Flag(name: .long, help: "Show the played part as a filled region instead of a playhead line.")
    var fillIndicator = false

    func validate() throws {
        guard (1...64).contains(scrubberBarWidth) else { throw ValidationError("--scrubber-bar-width must be between 1 and 64") }
        guard (0...64).contains(scrubberBarSpacing) else { throw ValidationError("--scrubber-bar-spacing must be between 0 and 64") }
        guard ScrubberFilter(rawValue: scrubberFilter) != nil else { throw ValidationError("--scrubber-filter must be max or average") }
        guard ScrubberScale.noiseFloors.contains(noiseFloor) else { throw ValidationError("--noise-floor must be -50, -70 or -90") }
    }

    /// What the app takes.
    var settings: ScrubberSettings {
        var settings = ScrubberSettings()
        settings.barWidth = scrubberBarWidth
        settings.barSpacing = scrubberBarSpacing
        settings.filter = ScrubberFilter(rawValue: scrubberFilter) ?? .max
        settings.decibels = decibels
        settings.noiseFloor = noiseFloor
        settings.fillIndicator = fillIndicator
        return settings
    }
}
