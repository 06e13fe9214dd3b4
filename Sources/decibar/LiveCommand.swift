import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Live: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a window of animated bars that follow what the computer is playing.",
            discussion: CommandHelp.live)

        @OptionGroup var source: SourceOption

        @OptionGroup var display: DisplayOptions

        @OptionGroup var config: ConfigFileOption

        @OptionGroup var outputs: OutputsOption

        @Option(name: ConfigSchema.Audio.avOffset.option, parsing: .unconditional, help: ConfigSchema.Audio.avOffset.help) var avOffset: Double?
        /// The options given, over the file's values on reload too.
        private func layer() throws -> Configuration {
            var layer = try display.layer().merging(try source.layer()).merging(try outputs.layer())
            try layer.put(ConfigSchema.Audio.avOffset, avOffset.map(JSONValue.number))
            return layer
        }

        func validate() throws {
            _ = try layer()
        }

        func run() throws {
            let settings = try settings()
            try LiveView(source: settings.source, apps: settings.apps, display: settings.display, avOffset: settings.avOffset,
                         reload: ConfigReload(path: config.path, overrides: try display.layer()), outputs: settings.outputs).run()
        }

        /// What the live window takes: the options given, over the config file, over the defaults.
        func settings() throws -> (source: String?, apps: AppSelection, display: DisplaySettings, avOffset: Double, outputs: [OutputTarget]) {
            let file = try config.load()
            let settings = file.merging(try layer())
            let apps = AppSelection(apps: settings[ConfigSchema.Audio.apps], excludedApps: settings[ConfigSchema.Audio.excludeApps])
            return (settings[ConfigSchema.Audio.source], apps, try display.settings(over: file), settings[ConfigSchema.Audio.avOffset] / 1000,
                    settings[ConfigSchema.Outputs.send])
        }
    }
}
