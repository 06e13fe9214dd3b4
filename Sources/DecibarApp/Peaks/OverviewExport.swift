import DecibarCore
import Foundation
import Glibc

/// `decibar peaks`: a file's overview in audiowaveform's JSON or `.dat` format, or an overview
/// converted between the two.
public struct OverviewExport {
    let file: String
    let output: String
    let samplesPerPixel: Int
    let bits: Int

    public init(file: String, output: String, samplesPerPixel: Int, bits: Int) {
        self.file = file
        self.output = output
        self.samplesPerPixel = samplesPerPixel
        self.bits = bits
    }

    /// The format OUT's extension asks for, or nil.
    public static func format(of output: String) -> String? {
        let lowered = output.lowercased()
        return lowered.hasSuffix(".json") ? "json" : lowered.hasSuffix(".dat") ? "dat" : nil
    }

    /// OUT names a format, and never replaces the input.
    public static func check(output: String, file: String) throws(CommandFailure) {
        guard format(of: output) != nil else { throw CommandFailure(message: "-o must end in .json or .dat", status: 2) }
        do { try OutputPath.check(output, option: "-o", kind: .file, inputs: [file]) } catch {
            throw CommandFailure(message: error.description, status: 2)
        }
    }

    public func run() throws {
        let peaks: Peaks
        let input = OutputPath.fileExtension(of: file)
        if file == "-" {
            // Audio piped in (`ffmpeg ... -f flac - | decibar peaks - -o out.json`), decoded as it comes.
            guard !Posix.isTerminal(STDIN_FILENO) else {
                throw CommandFailure(message: "peaks -: standard input is a terminal; pipe audio into it (... | decibar peaks - -o OUT)")
            }
            do {
                peaks = try PeaksAnalysis.analyze(source: PipeInput(), name: "standard input", samplesPerPixel: samplesPerPixel).peaks
            } catch {
                throw CommandFailure(message: error.description)
            }
        } else if input == "dat" || input == "json" {
            // Already an overview (audiowaveform's own files): convert it, as audiowaveform does.
            peaks = try Self.readOverview(file, isJSON: input == "json")
        } else {
            do {
                peaks = try PeaksAnalysis.analyze(path: file, samplesPerPixel: samplesPerPixel).peaks
            } catch {
                throw CommandFailure(message: error.description)
            }
        }
        let depth: AudiowaveformFormat.Bits = bits == 8 ? .eight : .sixteen
        PartialOutput.removeStale(for: output)
        let out = try PartialOutput(destination: output, protecting: [file])
        let write = { (piece: UnsafeBufferPointer<UInt8>) throws(CommandFailure) in try out.write(UnsafeRawBufferPointer(piece)) }
        if Self.format(of: output) == "json" {
            try AudiowaveformFormat.encodeJSON(peaks, bits: depth, write)
        } else {
            try AudiowaveformFormat.encodeBinary(peaks, bits: depth, write)
        }
        try out.commit()
    }

    /// Reads an audiowaveform `.dat` or JSON file (at most 1 GiB).
    private static func readOverview(_ path: String, isJSON: Bool) throws -> Peaks {
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, limit: 1 << 30)
        } catch {
            throw CommandFailure(message: "\(path.escapingControlCharacters): \(error.reason)")
        }
        do {
            return isJSON ? try AudiowaveformFormat.peaks(fromJSON: bytes) : try AudiowaveformFormat.peaks(fromBinary: bytes)
        } catch {
            throw CommandFailure(message: "\(path.escapingControlCharacters): \(error.description)")
        }
    }
}
