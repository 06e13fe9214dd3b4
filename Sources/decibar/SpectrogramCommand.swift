import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Spectrogram: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a picture of a file's spectrogram (PNG), with its axes and a dB legend.",
            discussion: CommandHelp.spectrogram)
        static let settingCommand = SettingCommand.spectrogram

        @Argument(help: ArgumentHelp("The audio file (or stream address) to picture.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the picture: a .png path.", valueName: "out"))
        var output: String

        @OptionGroup(title: "Settings") var options: SettingOptions<Spectrogram>

        func validate() throws {
            do { try FileSpectrogram.check(output: output, file: file, settings: try options.layer()) } catch let failure as CommandFailure {
                throw ValidationError(failure.message)
            }
        }

        /// Like render, it reads no config file: the same picture on every machine.
        func run() throws {
            try FileSpectrogram(file: file, output: output, display: DisplaySettings(configuration: try options.layer())).run()
        }
    }
}
