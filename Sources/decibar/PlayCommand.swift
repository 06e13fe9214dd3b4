import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Play: ParsableCommand {
        private typealias Key = ConfigSchema.Player

        static let configuration = CommandConfiguration(
            abstract: "Play files with animated bars and a waveform scrubber you click or drag to seek.",
            discussion: CommandHelp.play)

        @Argument(help: ArgumentHelp("Audio files (wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov) or http:// and https:// addresses of them or of a radio stream.", valueName: "file-or-url"))
        var files: [String]

        @OptionGroup var display: DisplayOptions

        @Option(name: Key.loop.option, help: Key.loop.help) var loop: LoopMode?
        @Flag(name: Key.shuffle.option, inversion: .prefixedNo, help: Key.shuffle.help) var shuffle: Bool?
        @Option(name: Key.volume.option, help: Key.volume.help) var volume: Double?
        @Option(name: Key.rate.option, help: Key.rate.help) var rate: Double?
        @Option(name: Key.pitch.option, parsing: .unconditional, help: Key.pitch.help) var pitch: Double?

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
            try layer.put(Key.shuffle, shuffle.map { .bool($0) })
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
                files: files, loop: player[Key.loop], shuffle: player[Key.shuffle], exitsAtEnd: exitAtEnd, volume: player[Key.volume],
                rateAndPitch: RateAndPitch(rate: player[Key.rate], pitch: player[Key.pitch]),
                display: try display.settings(over: file),
                scrubber: try scrubber.settings(over: file), stream: try stream.settings(over: file), seekLogPath: seekLog)
        }
    }
}
