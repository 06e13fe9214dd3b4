import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Play: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Play files with animated bars and a waveform scrubber you click or drag to seek.",
            discussion: CommandHelp.play)
        static let settingCommand = SettingCommand.play
        static var ownRows: [ConfigKey] { WindowRows.rows.keys }

        @Argument(help: ArgumentHelp("Audio files (wav, aiff, caf, flac, ogg, opus, mp3, aac, m4a, mp4, mov) or http:// and https:// addresses of them or of a radio stream.", valueName: "file-or-url"))
        var files: [String]

        @OptionGroup(title: "Settings") var options: SettingOptions<Play>

        @Flag(name: .long, help: "Exit at the end of the list instead of showing the last track stopped.")
        var exitAtEnd = false

        @OptionGroup var window: WindowOptions

        @OptionGroup var config: ConfigFileOption

        /// One line per seek (when the release was handled, when the new audio was written), for the benchmarks.
        @Option(name: .customLong("seek-log"), help: .hidden)
        var seekLog: String?

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("name at least one file to play") }
            // What play writes must never replace what it plays.
            try window.check(try options.layer(), inputs: files)
            if let seekLog { try checkOutput(seekLog, option: "--seek-log", kind: .file, inputs: files) }
        }

        func run() throws {
            try PlayView(settings: try settings()).run()
        }

        /// What the player takes: the options given, over the config file, over the defaults.
        func settings() throws -> PlayView.Settings {
            let player = try config.load().merging(try options.layer())
            return PlayView.Settings(files: files, configuration: player, exitsAtEnd: exitAtEnd, display: window.settings(player), seekLogPath: seekLog)
        }
    }
}
