import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Term: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(abstract: CommandHelp.termAbstract, discussion: CommandHelp.term)
        static let settingCommand = SettingCommand.term
        @Argument(help: ArgumentHelp(CommandHelp.termFiles, valueName: "file-or-url")) var files: [String] = []
        @OptionGroup(title: "Settings") var options: SettingOptions<Term>
        @OptionGroup var config: ConfigFileOption

        func run() throws { try TerminalView(files: files, configuration: try config.load().merging(try options.layer())).run() }
    }
}
