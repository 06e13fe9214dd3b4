import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct PeaksExport: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            commandName: "peaks",
            abstract: "Write a file's waveform overview in BBC audiowaveform's JSON or binary format.",
            discussion: CommandHelp.peaks)
        static let settingCommand = SettingCommand.peaks
        static var ownRows: [ConfigKey] { PeaksOptions.rows.keys }

        @Argument(help: ArgumentHelp("The audio file to analyze (- reads a pipe), or a .dat/.json overview to convert.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: a .json or .dat path.", valueName: "out"))
        var output: String

        @OptionGroup(title: "Settings") var options: SettingOptions<PeaksExport>

        func validate() throws {
            do { try OverviewExport.check(output: output, file: file) } catch let failure as CommandFailure { throw ValidationError(failure.message) }
        }

        func run() throws {
            let settings = try options.layer()
            try OverviewExport(file: file, output: output, samplesPerPixel: settings[PeaksOptions.rows.samplesPerPixel],
                               bits: Int(settings[PeaksOptions.rows.bits])).run()
        }
    }
}
