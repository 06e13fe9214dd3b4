import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Term: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw the bars in the terminal; given files, play them with a waveform scrubber you click or drag to seek.",
            discussion: CommandHelp.term)
        static let settingCommand = SettingCommand.term

        @Argument(help: ArgumentHelp("Audio files or http:// and https:// addresses to play (none: what the computer plays).", valueName: "file-or-url"))
        var files: [String] = []

        @OptionGroup(title: "Settings") var options: SettingOptions<Term>

        @OptionGroup var config: ConfigFileOption

        func run() throws {
            try TerminalView(files: files, configuration: try config.load().merging(try options.layer())).run()
        }
    }
}
