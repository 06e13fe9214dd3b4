import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Scale: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an audio file longer or shorter by a factor, channel by channel.",
            discussion: CommandHelp.scale)

        @Argument(help: ArgumentHelp("The audio file to scale (or an http:// or https:// address).", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write; the extension picks the format.", valueName: "out"))
        var output: String

        @Option(name: .long, help: ArgumentHelp("The new duration as a multiple of the old: 0.1 to 10.", valueName: "f"))
        var factor: Double

        @Flag(name: .long, help: "Merge the channels into one first (their average).")
        var singleChannel = false

        @Flag(name: .long, help: "Keep the pitch: stretch with Rubber Band instead of spreading the samples.")
        var keepPitch = false

        @Option(name: .long, help: ArgumentHelp("Samples in a lossless OUT: s16, s24, s32 or f32 (default: as the input).", valueName: "format"))
        var sampleFormat: SampleFormat?

        func validate() throws {
            guard factor.isFinite, factor >= 0.1, factor <= 10 else { throw ValidationError("--factor must be between 0.1 and 10") }
            let target = ScaleOutputFormat.resolve(output)
            if sampleFormat == .f32 && target.format.codec == "flac" {
                throw ValidationError("--sample-format f32: flac holds integer samples (s16 or s24)")
            }
            try checkOutput(target.path, option: "-o", kind: .file, inputs: [file])
        }

        func run() throws {
            let target = ScaleOutputFormat.resolve(output)
            if target.isFallback {
                writeError("cannot write \(output.escapingControlCharacters) in its own format; writing \(target.path.escapingControlCharacters) (AAC) instead")
            }
            try FileScaling(input: file, output: target.path, format: target.format, factor: factor, singleChannel: singleChannel,
                            sampleFormat: sampleFormat, keepsPitch: keepPitch).run()
        }
    }
}

