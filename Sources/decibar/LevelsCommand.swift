import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Levels: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print levels, spectrum bands, loudness, beats or the stereo image as JSON lines, without a window.",
            discussion: CommandHelp.levels)
        static let settingCommand = SettingCommand.levels
        static var ownRows: [ConfigKey] { LevelsOptions.rows.keys }

        @OptionGroup(title: "Settings") var options: SettingOptions<Levels>

        func validate() throws {
            do { try LevelsOptions.check(try options.layer()) } catch let failure as CommandFailure { throw ValidationError(failure.message) }
        }

        func run() throws {
            try LevelsRunner(settings: try options.layer()).run()
        }
    }
}
