import ArgumentParser
import DecibarAudio
import DecibarCore
import Foundation

extension Decibar {
    struct PeaksExport: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "peaks",
            abstract: "Write a file's waveform overview in BBC audiowaveform's JSON or binary format.",
            discussion: """
                One min/max pair per channel for every N samples (version 2 per-channel data, as
                `audiowaveform --split-channels` writes), readable by peaks.js, wavesurfer and
                audiowaveform itself. The format follows OUT's extension: .json or .dat.
                Values are samples scaled to 16 bits (round(x * 32767)); 8-bit data is that / 256.
                """)

        @Argument(help: ArgumentHelp("The audio file to analyse.", valueName: "file"))
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
            guard format != nil else { throw ValidationError("-o must end in .json or .dat") }
            try DisplayOptions.checkWritable(output, option: "-o")
        }

        private var format: String? {
            let lowered = output.lowercased()
            return lowered.hasSuffix(".json") ? "json" : lowered.hasSuffix(".dat") ? "dat" : nil
        }

        func run() throws {
            let peaks: Peaks
            do {
                peaks = try PeaksAnalysis.analyse(path: file, samplesPerPixel: samplesPerPixel)
            } catch {
                throw CommandFailure(message: error.description)
            }
            let depth: AudiowaveformFormat.Bits = bits == 8 ? .eight : .sixteen
            let bytes = format == "json" ? Array(AudiowaveformFormat.json(peaks, bits: depth).utf8)
                : AudiowaveformFormat.binary(peaks, bits: depth)
            try FileWriter.writeAtomically(bytes, to: output)
        }
    }
}

/// Decodes a whole file into peaks, streaming: memory holds the peaks, never the audio.
enum PeaksAnalysis {
    static func analyse(path: String, samplesPerPixel: Int,
                        progress: ((Peaks, Int64) -> Bool)? = nil) throws(AudioFileError) -> Peaks {
        let decoder = try AudioFileDecoder(path: path)
        var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount,
                                   samplesPerPixel: samplesPerPixel)
        while try decoder.read({ samples in
            builder.process(interleaved: samples, frames: samples.count / decoder.channelCount)
        }) {
            if let progress, !progress(builder.peaks, builder.frameCount) { break }
        }
        return builder.finish()
    }
}

/// Writes a file so that readers never see half of it: a temporary name, then a rename.
enum FileWriter {
    static func writeAtomically(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".partial-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw CommandFailure(message: "cannot write \(path)")
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw CommandFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
    }
}
