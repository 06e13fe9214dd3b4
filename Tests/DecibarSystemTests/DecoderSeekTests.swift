import DecibarAudio
import Foundation
import Testing

@Suite("Sample-accurate seeking in files")
struct DecoderSeekTests {
    func decodeAll(_ decoder: AudioFileDecoder, limit: Int = .max) throws -> [Float] {
        var samples: [Float] = []
        while samples.count < limit, try decoder.read({ samples.append(contentsOf: $0) }) {}
        return samples
    }

    /// The lag (in frames, channel 0) at which `piece` best matches `whole` around `expected`.
    func bestLag(of piece: [Float], in whole: [Float], around expected: Int, channels: Int, range: Int = 200) -> Int {
        var best = (lag: 0, error: Float.infinity)
        let length = min(4096, piece.count / channels)
        for lag in -range ... range {
            let start = expected + lag
            guard start >= 0, (start + length) * channels <= whole.count else { continue }
            var error: Float = 0
            for frame in 0 ..< length {
                let difference = piece[frame * channels] - whole[(start + frame) * channels]
                error += difference * difference
            }
            if error < best.error { best = (lag, error) }
        }
        return best.lag
    }

    @Test("after a seek, decoding continues exactly at the target frame",
          arguments: ["wav", "flac", "aiff", "mp3", "ogg", "m4a", "opus"])
    func seek(format: String) throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/sweep." + format
        // A rising tone plus a slow wobble: every stretch of it looks different, so alignment is unambiguous.
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
                                              "aevalsrc=0.5*sin(2*PI*(200+300*t)*t)+0.2*sin(2*PI*3*t)|0.4*sin(2*PI*(500+100*t)*t):s=48000:d=6",
                                              path])
        #expect(made.status == 0, "\(made.error)")
        let whole = try decodeAll(try AudioFileDecoder(path: path))
        let lossless = ["wav", "flac", "aiff"].contains(format)
        for target in [Int64(0), 12_345, 72_000, 200_001, 250_000] {
            let decoder = try AudioFileDecoder(path: path)
            // Read a little first, as a player would before the user seeks.
            _ = try decoder.read { _ in }
            try decoder.seek(toFrame: target)
            #expect(decoder.framePosition == target)
            let piece = try decodeAll(decoder, limit: 8192 * 2)
            if lossless {
                let expected = Array(whole[Int(target) * 2 ..< Int(target) * 2 + 8192 * 2])
                #expect(Array(piece.prefix(8192 * 2)) == expected, "\(format) at \(target)")
            } else {
                let lag = bestLag(of: piece, in: whole, around: Int(target), channels: 2)
                #expect(abs(lag) <= 48, "\(format) at \(target): off by \(lag) frames")
            }
        }
    }

    @Test("seeking past the end ends the file; seeking back works again")
    func edges() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 1)
        let decoder = try AudioFileDecoder(path: folder + "/tone.wav")
        try decoder.seek(toFrame: 10 * 48000)
        #expect(try decoder.read { _ in } == false)
        try decoder.seek(toFrame: 47_000)
        let rest = try decodeAll(decoder)
        #expect(rest.count == 1000 * 2)
    }
}
