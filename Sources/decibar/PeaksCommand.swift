import ArgumentParser
import DecibarApp

extension Decibar {
    struct PeaksExport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "peaks",
            abstract: "Write a file's waveform overview in BBC audiowaveform's JSON or binary format.",
            discussion: CommandHelp.peaks)

        @Argument(help: ArgumentHelp("The audio file to analyze (- reads a pipe), or a .dat/.json overview to convert.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: a .json or .dat path.", valueName: "out"))
        var output: String

        @Option(name: .long, help: ArgumentHelp("Audio frames per min/max pair (at least 2).", valueName: "n"))
        var samplesPerPixel = 256

        @Option(name: .long, help: ArgumentHelp("Resolution of the values: 8 or 16 bits. peaks.js needs 8.", valueName: "bits"))
        var bits = 16

        func validate() throws {
            guard samplesPerPixel >= 2 && samplesPerPixel <= 1 << 24 else {
                throw ValidationError("--samples-per-pixel must be between 2 and 16777216")
            }
            guard bits == 8 || bits == 16 else { throw ValidationError("--bits must be 8 or 16") }
            guard OverviewExport.format(of: output) != nil else { throw ValidationError("-o must end in .json or .dat") }
            try checkOutput(output, option: "-o", kind: .file, inputs: [file])
        }

        func run() throws {
            try OverviewExport(file: file, output: output, samplesPerPixel: samplesPerPixel, bits: bits).run()
        }
    }
}
