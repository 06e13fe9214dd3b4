import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Live: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a window of animated bars that follow what the computer is playing.",
            discussion: CommandHelp.live)
        static let settingCommand = SettingCommand.live
        static var ownRows: [ConfigKey] { WindowRows.rows.keys }

        @OptionGroup(title: "Settings") var options: SettingOptions<Live>

        @OptionGroup var window: WindowOptions

        @OptionGroup var config: ConfigFileOption

        func validate() throws { try window.check(try options.layer()) }

        func run() throws { try view().run() }

        /// The live window the options make, over the config file, over the defaults.
        func view() throws -> LiveView {
            let settings = try config.load().merging(try options.layer())
            return LiveView(configuration: settings, display: window.settings(settings), reload: ConfigReload(path: config.path, overrides: try options.layer()))
        }
    }
}
