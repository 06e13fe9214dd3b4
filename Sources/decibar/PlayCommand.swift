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
                d switches the scrubber between linear and dB, f fullscreen, q or Esc quits.
                A file that cannot be played is reported and skipped.
                """)

        @Argument(help: ArgumentHelp("Audio files: wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov.", valueName: "file"))
        var files: [String]

        @Flag(name: .long, help: "Start again from the first file after the last.")
        var loop = false

        @Option(name: .long, help: ArgumentHelp("Number of bars, 1 to 1024.", valueName: "n"))
        var bars = 48

        @Option(name: .long, help: ArgumentHelp("Window size in pixels.", valueName: "WxH"))
        var size = WindowSize(width: 1280, height: 720)

        @Flag(name: .long, help: "Start fullscreen.")
        var fullscreen = false

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

        @Option(name: .long, help: ArgumentHelp("Close after this many seconds.", valueName: "seconds"))
        var exitAfter: Double?

        @Option(name: .long, help: ArgumentHelp("When closing, save the last frame as a PNG here.", valueName: "path"))
        var screenshot: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to play") }
            guard (1...1024).contains(bars) else { throw ValidationError("--bars must be between 1 and 1024") }
            guard (1...64).contains(scrubberBarWidth) else { throw ValidationError("--scrubber-bar-width must be between 1 and 64") }
            guard (0...64).contains(scrubberBarSpacing) else { throw ValidationError("--scrubber-bar-spacing must be between 0 and 64") }
            guard ScrubberFilter(rawValue: scrubberFilter) != nil else { throw ValidationError("--scrubber-filter must be max or average") }
            guard ScrubberScale.noiseFloors.contains(noiseFloor) else { throw ValidationError("--noise-floor must be -50, -70 or -90") }
            if let exitAfter, !(exitAfter.isFinite && exitAfter > 0) {
                throw ValidationError("--exit-after must be a positive number of seconds")
            }
            if let screenshot { try Live.checkWritable(screenshot, option: "--screenshot") }
        }

        func run() throws {
            try PlayView(settings: PlayView.Settings(
                files: files, loops: loop, barCount: bars, size: size, fullscreen: fullscreen,
                scrubberBarWidth: scrubberBarWidth, scrubberBarSpacing: scrubberBarSpacing,
                filter: ScrubberFilter(rawValue: scrubberFilter) ?? .max, decibels: decibels, noiseFloor: noiseFloor,
                fillIndicator: fillIndicator, exitAfter: exitAfter, screenshotPath: screenshot)).run()
        }
    }
}
