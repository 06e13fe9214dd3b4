import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Scale: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an audio file longer or shorter by a factor, channel by channel.",
            discussion: CommandHelp.scale)
        static let settingCommand = SettingCommand.scale
        static var ownRows: [ConfigKey] { ScaleOptions.rows.keys }

        @Argument(help: ArgumentHelp("The audio file to scale (or an http:// or https:// address).", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write; the extension picks the format.", valueName: "out"))
        var output: String

        @OptionGroup(title: "Settings") var options: SettingOptions<Scale>

        func validate() throws {
            do { try ScaleOptions.check(try options.layer(), output: output, input: file) } catch let failure as CommandFailure {
                throw ValidationError(failure.message)
            }
        }

        func run() throws {
            try ScaleOptions.run(try options.layer(), output: output, input: file)
        }
    }
}
