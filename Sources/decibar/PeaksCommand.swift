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
                One min/max pair per channel for every N samples (version 2 per-channel data, as \
                `audiowaveform --split-channels` writes), readable by peaks.js, wavesurfer and \
                audiowaveform itself. The format follows OUT's extension: .json or .dat. \
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
            try FileWriter.writeAtomically(to: output) { (write) throws(CommandFailure) in
                if format == "json" {
                    try AudiowaveformFormat.encodeJSON(peaks, bits: depth, write)
                } else {
                    try AudiowaveformFormat.encodeBinary(peaks, bits: depth, write)
                }
            }
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
        if let frames = decoder.estimatedFrameCount { builder.reserveCapacity(forFrames: frames + frames / 100) }
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
        try writeAtomically(to: path) { (write) throws(CommandFailure) in
            try bytes.withUnsafeBufferPointer { (all) throws(CommandFailure) in try write(all) }
        }
    }

    /// Calls `body` with a writer for the temporary file; renames it to `path` only if all went well.
    static func writeAtomically(to path: String,
                                _ body: ((UnsafeBufferPointer<UInt8>) throws(CommandFailure) -> Void) throws(CommandFailure) -> Void) throws(CommandFailure) {
        let temporary = path + ".partial-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CommandFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))") }
        do throws(CommandFailure) {
            try body { (bytes) throws(CommandFailure) in
                var offset = 0
                while offset < bytes.count {
                    let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if written < 0 && errno == EINTR { continue }
                    guard written > 0 else {
                        throw CommandFailure(message: "cannot write \(path): \(String(cString: strerror(errno)))")
                    }
                    offset += written
                }
            }
        } catch {
            close(descriptor)
            unlink(temporary)
            throw error
        }
        guard close(descriptor) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure(message: "cannot write \(path): \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CommandFailure(message: "cannot write \(path): \(reason)")
        }
    }
}
