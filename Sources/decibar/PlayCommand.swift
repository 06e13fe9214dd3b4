import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Play: ParsableCommand {
        private typealias Key = ConfigSchema.Player

        static let configuration = CommandConfiguration(
            abstract: "Play files with animated bars and a waveform scrubber you click or drag to seek.",
            discussion: """
                Plays the files in order through the sound server. The bars follow what you hear \
                (delayed by the stream's latency, so they match the sound); below them, the whole \
                track's waveform fills in while it plays. Click or drag on it to seek.
                Keys: space play/pause, x stop (back to 0:00), Left/Right -/+5 s, Home/End, n/p \
                next/previous file, 9/0 volume down/up, [/] rate -/+0.25, {/} pitch -/+100 cents, \\ \
                normal rate and pitch, l loop none/track/playlist, d switches the \
                scrubber between linear and dB, m bars/spectrum/meter, s the next --shader-dir \
                shader, f fullscreen, q or Esc quits. Media keys and playerctl control it too (MPRIS, \
                on the session bus).
                At the end of the list the window stays open on the last track, stopped; \
                --exit-at-end closes it instead (for scripts). A file that cannot be played is \
                reported and skipped.
                An address plays while it downloads (into $XDG_CACHE_HOME/decibar/streams): it \
                starts once a second of it is decoded, the scrubber shades what has arrived, and a \
                seek beyond that fetches from there. A radio (no length) plays with a "live" label \
                and shows its stream title.
                """)

        @Argument(help: ArgumentHelp("Audio files (wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov) or http:// and https:// addresses of them or of a radio stream.", valueName: "file-or-url"))
        var files: [String]

        @OptionGroup var display: DisplayOptions

        @Option(name: Key.loop.option, help: Key.loop.help)
        var loop: LoopMode?

        @Option(name: Key.volume.option, help: Key.volume.help)
        var volume: Double?

        @Option(name: Key.rate.option, help: Key.rate.help)
        var rate: Double?

        @Option(name: Key.pitch.option, parsing: .unconditional, help: Key.pitch.help)
        var pitch: Double?

        @Flag(name: .long, help: "Exit at the end of the list instead of showing the last track stopped.")
        var exitAtEnd = false

        @OptionGroup var config: ConfigFileOption

        @OptionGroup var scrubber: ScrubberOptions

        @OptionGroup(title: "Streams (http:// and https:// addresses)") var stream: StreamOptions

        /// One line per seek (when the release was handled, when the new audio was written), for the benchmarks.
        @Option(name: .customLong("seek-log"), help: .hidden)
        var seekLog: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to play") }
            _ = try layer()
            if let seekLog { try checkOutput(seekLog, option: "--seek-log", kind: .file, inputs: files) }
            // What play writes must never replace what it plays.
            if let record = display.record { try checkOutput(record, option: "--record", kind: .file, inputs: files) }
            if let screenshot = display.screenshot { try checkOutput(screenshot, option: "--screenshot", kind: .file, inputs: files) }
        }

        /// The player's own options given, as a layer over the file.
        private func layer() throws -> Configuration {
            var layer = Configuration()
            try layer.put(Key.loop, loop.map { .string($0.rawValue) })
            try layer.put(Key.volume, volume.map(JSONValue.number))
            try layer.put(Key.rate, rate.map(JSONValue.number))
            try layer.put(Key.pitch, pitch.map(JSONValue.number))
            return layer
        }

        func run() throws {
            try PlayView(settings: try settings()).run()
        }

        /// What the player takes: the options given, over the config file, over the defaults.
        func settings() throws -> PlayView.Settings {
            let file = try config.load()
            let player = file.merging(try layer())
            return PlayView.Settings(
                files: files, loop: player[Key.loop], exitsAtEnd: exitAtEnd, volume: player[Key.volume],
                rateAndPitch: RateAndPitch(rate: player[Key.rate], pitch: player[Key.pitch]),
                display: try display.settings(over: file),
                scrubber: try scrubber.settings(over: file), stream: try stream.settings(over: file), seekLogPath: seekLog)
        }
    }
}
