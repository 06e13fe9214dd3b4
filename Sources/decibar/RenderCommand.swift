import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Render: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the player's view of a file to a video, offline and frame-exact.",
            discussion: CommandHelp.render)
        static let settingCommand = SettingCommand.render
        /// Its own rows, and a window's, known only to say what render has instead.
        static var ownRows: [ConfigKey] { RenderOptions.rows.keys + WindowRows.rows.keys }

        @Argument(help: ArgumentHelp("The audio file to render.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: OUT.mp4, .mov, .webm, .gif or a folder/. Give it again for more videos of the same render (the audio is decoded and analyzed once), with a size for each in --size.", valueName: "out"))
        var output: [String]

        @OptionGroup(title: "Settings") var options: SettingOptions<Render>

        func validate() throws {
            do { try RenderOptions.check(outputs: output, of: file, settings: try options.layer()) } catch let failure as CommandFailure {
                throw ValidationError(failure.message)
            }
        }

        /// The view drawn: the options given over the defaults (render reads no config file, so a
        /// render is the same on every machine).
        func run() throws {
            try OfflineRender(file: file, outputPaths: output, settings: try options.layer()).run()
        }
    }
}
