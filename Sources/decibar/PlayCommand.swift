import ArgumentParser
import DecibarApp

extension Decibar {
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play files with animated bars and a waveform scrubber you click or drag to seek.",
            discussion: """
                Plays the files in order through the sound server. The bars follow what you hear \
                (delayed by the stream's latency, so they match the sound); below them, the whole \
                track's waveform fills in while it plays. Click or drag on it to seek.
                Keys: space play/pause, Left/Right -/+5 s, Home/End, n/p next/previous file, \
                d switches the scrubber between linear and dB, m bars/spectrum/meter, s the next \
                --shader-dir shader, f fullscreen, q or Esc quits.
                A file that cannot be played is reported and skipped.
                """)

        @Argument(help: ArgumentHelp("Audio files: wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov.", valueName: "file"))
        var files: [String]

        @OptionGroup var display: DisplayOptions

        @Flag(name: .long, inversion: .prefixedNo, help: "Start again from the first file after the last.")
        var loop: Bool?

        @OptionGroup var config: ConfigFileOption

        @OptionGroup var scrubber: ScrubberOptions

        /// One line per seek (when the release was handled, when the new audio was written), for the benchmarks.
        @Option(name: .customLong("seek-log"), help: .hidden)
        var seekLog: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to play") }
            if let seekLog { try checkOutput(seekLog, option: "--seek-log", kind: .file, inputs: files) }
            // What play writes must never replace what it plays.
            if let record = display.record { try checkOutput(record, option: "--record", kind: .file, inputs: files) }
            if let screenshot = display.screenshot { try checkOutput(screenshot, option: "--screenshot", kind: .file, inputs: files) }
        }

        func run() throws {
            let file = try config.load()
            try PlayView(settings: PlayView.Settings(
                files: files, loops: loop ?? file.bool("player.loop"), display: display.settings(over: file),
                scrubber: scrubber.settings(over: file), seekLogPath: seekLog)).run()
        }
    }
}
