import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Scale: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make an audio file longer or shorter by a factor, channel by channel.",
            discussion: """
                --factor 2 makes a 10 s file 20 s long (and an octave lower: the samples are \
                spread out, as a tape played slower); 0.5 makes it 5 s long and an octave higher. \
                Each channel is scaled on its own by linear interpolation between neighboring \
                samples, with smoothstep easing when stretching, and the channel layout is kept \
                (a 7.1 file stays 7.1). Integer samples are rounded half to even.
                --keep-pitch changes the duration and keeps the pitch instead, with the Rubber \
                Band Library's offline stretcher (its R3 engine): it reads the file twice, once \
                to study it and once to stretch it.
                The format follows OUT's extension: wav, flac, aiff, caf (lossless, at the \
                input's bit depth unless --sample-format says otherwise), m4a, aac, mp4, mp3, ogg \
                or opus; any other extension is written as AAC in an .m4a next to the name given. \
                The sample rate is the input's (opus and mp3 take the nearest rate they allow). \
                Works as a stream with little memory however long the file; OUT appears only \
                when complete. Needs the ffmpeg program.
                """)

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

