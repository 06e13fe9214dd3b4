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

        func run() throws {
            let settings = try settings()
            var view = LiveView(source: settings.source, apps: settings.apps, display: settings.display, avOffset: settings.avOffset,
                                reload: ConfigReload(path: config.path, overrides: try options.layer()), outputs: settings.outputs)
            view.backend = settings.backend
            view.configuration = settings.configuration
            try view.run()
        }

        /// What the live window takes: the options given, over the config file, over the defaults.
        func settings() throws -> (source: String?, apps: AppSelection, display: DisplaySettings, avOffset: Double, outputs: [OutputTarget],
                                   backend: AudioBackendChoice, configuration: Configuration) {
            let settings = try config.load().merging(try options.layer())
            let apps = AppSelection(apps: settings[ConfigSchema.audio.apps], excludedApps: settings[ConfigSchema.audio.excludeApps])
            return (settings[ConfigSchema.audio.source], apps, window.settings(settings), settings[ConfigSchema.audio.avOffset] / 1000,
                    settings[ConfigSchema.outputs.send], settings[ConfigSchema.audio.backend], settings)
        }
    }
}
