import ArgumentParser
import DecibarCore
import Foundation

extension Decibar {
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play files with animated bars and a waveform scrubber you click or drag to seek.",
            discussion: """
                Plays the files in order through the sound server. The bars follow what you hear
                (delayed by the stream's latency, so they match the sound); below them, the whole
                track's waveform fills in while it plays. Click or drag on it to seek.
                Keys: space play/pause, Left/Right -/+5 s, Home/End, n/p next/previous file,
                d switches the scrubber between linear and dB, m bars/spectrum/meter, s the next
                --shader-dir shader, f fullscreen, q or Esc quits.
                A file that cannot be played is reported and skipped.
                """)

        @Argument(help: ArgumentHelp("Audio files: wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov.", valueName: "file"))
        var files: [String]

        @OptionGroup var display: DisplayOptions

        @Flag(name: .long, help: "Start again from the first file after the last.")
        var loop = false

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

        /// One line per seek (when the release was handled, when the new audio was written), for the benchmarks.
        @Option(name: .customLong("seek-log"), help: .hidden)
        var seekLog: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to play") }
            guard (1...64).contains(scrubberBarWidth) else { throw ValidationError("--scrubber-bar-width must be between 1 and 64") }
            guard (0...64).contains(scrubberBarSpacing) else { throw ValidationError("--scrubber-bar-spacing must be between 0 and 64") }
            guard ScrubberFilter(rawValue: scrubberFilter) != nil else { throw ValidationError("--scrubber-filter must be max or average") }
            guard ScrubberScale.noiseFloors.contains(noiseFloor) else { throw ValidationError("--noise-floor must be -50, -70 or -90") }
            if let seekLog { try DisplayOptions.checkWritable(seekLog, option: "--seek-log") }
        }

        func run() throws {
            try PlayView(settings: PlayView.Settings(
                files: files, loops: loop, display: display,
                scrubberBarWidth: scrubberBarWidth, scrubberBarSpacing: scrubberBarSpacing,
                filter: ScrubberFilter(rawValue: scrubberFilter) ?? .max, decibels: decibels, noiseFloor: noiseFloor,
                fillIndicator: fillIndicator, seekLogPath: seekLog)).run()
        }
    }
}
