import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Play: ParsableCommand {
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

        @Option(name: .long, help: ArgumentHelp("At the end of a track: none (the next), track (again) or playlist (the list again after the last).",
                                                valueName: "none|track|playlist"))
        var loop: LoopMode?

        @Option(name: .long, help: ArgumentHelp("Volume in percent as the sound server shows it, 0 to 150 (default 100: the file as it is).",
                                                valueName: "percent"))
        var volume: Double?

        @Option(name: .long, help: ArgumentHelp("Speed, 0.25 to 4 (default 1), at the same pitch; the playhead stays in the file's time.",
                                                valueName: "factor"))
        var rate: Double?

        @Option(name: .long, help: ArgumentHelp("Pitch shift in cents, -2400 to 2400 (default 0; 1200 is an octave up), at the same speed.",
                                                valueName: "cents"))
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
            if let volume, !(volume.isFinite && PlayerVolume.range.contains(volume)) {
                throw ValidationError("--volume must be between 0 and 150 (percent)")
            }
            if let rate, !(rate.isFinite && RateAndPitch.rates.contains(rate)) {
                throw ValidationError("--rate must be between 0.25 and 4")
            }
            if let pitch, !(pitch.isFinite && RateAndPitch.pitches.contains(pitch)) {
                throw ValidationError("--pitch must be between -2400 and 2400 (cents)")
            }
            if let seekLog { try checkOutput(seekLog, option: "--seek-log", kind: .file, inputs: files) }
            // What play writes must never replace what it plays.
            if let record = display.record { try checkOutput(record, option: "--record", kind: .file, inputs: files) }
            if let screenshot = display.screenshot { try checkOutput(screenshot, option: "--screenshot", kind: .file, inputs: files) }
        }

        func run() throws {
            let file = try config.load()
            try PlayView(settings: PlayView.Settings(
                files: files, loop: loop ?? file.string("player.loop").flatMap(LoopMode.init(rawValue:)) ?? .none, exitsAtEnd: exitAtEnd,
                volume: volume ?? file.number("player.volume") ?? PlayerVolume.defaultPercent,
                rateAndPitch: RateAndPitch(rate: rate ?? file.number("player.rate") ?? 1, pitch: pitch ?? file.number("player.pitch") ?? 0),
                display: display.settings(over: file),
                scrubber: scrubber.settings(over: file), stream: try stream.settings(over: file), seekLogPath: seekLog)).run()
        }
    }
}
