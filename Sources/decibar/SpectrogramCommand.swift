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
            guard output.lowercased().hasSuffix(".png") else { throw ValidationError("-o must end in .png") }
            try checkOutput(output, option: "-o", kind: .file, inputs: [file])
            let size = try options.layer()[ConfigSchema.display.size]
            guard size.width >= 200 && size.height >= 120 else { throw ValidationError("--size must be at least 200x120 for the axes to fit") }
        }

        /// Like render, it reads no config file: the same picture on every machine.
        func run() throws {
            try FileSpectrogram(file: file, output: output, display: DisplaySettings(configuration: try options.layer())).run()
        }
    }
}
