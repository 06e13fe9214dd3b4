@testable import DecibarApp
import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// The scrubber's overview made in pieces decoded apart (on several cores) equals the overview of
/// one pass to the last bit, for every format that is split: the pieces' edges fall on the codecs'
/// packet edges and inside packets.
@Suite("Overview in pieces")
struct OverviewPiecesTests {
    /// Cuts at a FLAC block's edge (4096), at an edge of MP3 (1152), AAC (1024) and FLAC packets
    /// alike (184 320), and inside every codec's packets (256 × 1001).
    static let cuts: [Int64] = [102_400, 184_320, 256_256]

    /// The formats libsndfile reads in place of FFmpeg.
    static let lossless: Set<String> = ["wav", "aiff", "flac"]

    @Test("pieces equal one pass to 0 LSB, and libsndfile's overview equals FFmpeg's", arguments: [
        ("wav", ["-c:a", "pcm_s16le"]), ("wav", ["-c:a", "pcm_s24le"]), ("wav", ["-c:a", "pcm_s32le"]), ("wav", ["-c:a", "pcm_f32le"]),
        ("wav", ["-c:a", "pcm_u8"]), ("aiff", ["-c:a", "pcm_s24be"]), ("aiff", ["-c:a", "pcm_s16be"]), ("flac", []),
        ("flac", ["-sample_fmt", "s32"]), ("mp3", ["-c:a", "libmp3lame", "-b:a", "192k"]), ("ogg", ["-c:a", "libvorbis", "-q:a", "5"]),
    ])
    func piecesEqualOnePass(format: String, codec: [String]) throws {
        let directory = try TestRig.temporaryDirectory()
        let source = directory + "/source.wav", file = directory + "/song." + format
        // Music-like: a kick, a chord that moves, noise bursts (hats), 12 s.
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
            "aevalsrc=0.6*sin(2*PI*(50+90*exp(-25*mod(t\\,0.5)))*t)*exp(-7*mod(t\\,0.5))+0.15*sin(2*PI*(220+55*floor(t/3))*t)+0.1*(random(0)-0.5)*exp(-40*mod(t\\,0.25))"
            + "|0.5*sin(2*PI*(55+80*exp(-25*mod(t\\,0.5)))*t)*exp(-7*mod(t\\,0.5))+0.15*sin(2*PI*(330+55*floor(t/3))*t)+0.1*(random(1)-0.5)*exp(-40*mod(t\\,0.25)):s=44100:d=12",
            "-c:a", "pcm_f32le", source])
        #expect(made.status == 0, "\(made.error)")
        let encoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", source] + codec + [file])
        #expect(encoded.status == 0, "\(encoded.error)")
        let name = "\(format) \(codec.last ?? "")"

        // The reference: FFmpeg, one pass.
        let whole = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, inOnePass: true, usingFFmpeg: true)
        #expect(whole.reachedEnd && whole.frameCount == 12 * 44100 || format == "mp3" || format == "ogg", "\(name): \(whole.frameCount) frames")
        func expectEqual(_ result: PeaksAnalysis.Result, _ how: String) {
            #expect(result.frameCount == whole.frameCount && result.reachedEnd, "\(name), \(how): \(result.frameCount) frames")
            #expect(result.peaks.length == whole.peaks.length, "\(name), \(how): \(result.peaks.length) pairs against \(whole.peaks.length)")
            var differing = 0
            for channel in 0 ..< whole.peaks.channelCount {
                for (a, b) in zip(result.peaks.pairs[channel], whole.peaks.pairs[channel]) where a != b { differing += 1 }
            }
            #expect(differing == 0, "\(name), \(how): \(differing) pairs differ from FFmpeg's one pass")
        }

        let soundFile = SoundFileReader(path: file)
        #expect((soundFile != nil) == Self.lossless.contains(format), "\(name): libsndfile \(soundFile == nil ? "does not read" : "reads") it")
        // What `decibar peaks` and the scrubber do: libsndfile for lossless files, in one pass or in pieces.
        expectEqual(try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, inOnePass: true), "default reader, one pass")
        for cuts in [Self.cuts, [Self.cuts[1]]] {
            let ffmpeg = try #require(try PeaksAnalysis.analyze(path: file, reader: try AudioFileDecoder(path: file), samplesPerPixel: 256, cuts: cuts) { _, _, _ in true },
                                      "\(name): FFmpeg's pieces did not fit together")
            expectEqual(ffmpeg, "FFmpeg, cuts \(cuts)")
            if let reader = SoundFileReader(path: file) {
                let pieces = try #require(try PeaksAnalysis.analyze(path: file, reader: reader, samplesPerPixel: 256, cuts: cuts,
                                                                    reopen: { path throws(AudioFileError) in
                                                                        guard let reader = SoundFileReader(path: path) else { throw AudioFileError(path: path, reason: "gone") }
                                                                        return reader
                                                                    }) { _, _, _ in true },
                                          "\(name): libsndfile's pieces did not fit together")
                expectEqual(pieces, "libsndfile, cuts \(cuts)")
            }
        }
    }

    @Test("a FLAC cut short mid-file gets FFmpeg's overview (which decodes what is there), not libsndfile's stop")
    func damagedLosslessFallsBackToFFmpeg() throws {
        let directory = try TestRig.temporaryDirectory()
        let file = directory + "/cut.flac"
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=300:duration=40", file]).status == 0)
        let bytes = try #require(FileManager.default.contents(atPath: file))
        try bytes.prefix(bytes.count * 6 / 10).write(to: URL(fileURLWithPath: file))
        let reference = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, inOnePass: true, usingFFmpeg: true)
        let overview = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256)
        #expect(reference.frameCount > 20 * 44100 && reference.frameCount < 30 * 44100, "\(reference.frameCount) frames")
        #expect(overview.frameCount == reference.frameCount && overview.peaks == reference.peaks)
    }

    @Test("`decibar peaks` of a FLAC never loads FFmpeg; of an MP3 it does")
    func losslessOverviewLeavesFFmpegUnloaded() throws {
        let directory = try TestRig.temporaryDirectory()
        for (name, expectsFFmpeg) in [("song.flac", false), ("song.mp3", true)] {
            let file = directory + "/" + name
            #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=300:duration=40", file]).status == 0)
            // The dynamic loader names every library it opens.
            let run = try TestRig.run(TestRig.decibar, ["peaks", file, "-o", directory + "/" + name + ".dat"], environment: ["LD_DEBUG": "files"])
            #expect(run.status == 0, "\(run.error)")
            #expect(run.error.contains("libavcodec.so") == expectsFFmpeg, "\(name): FFmpeg \(expectsFFmpeg ? "not " : "")loaded")
            #expect(run.error.contains("libsndfile.so"), "\(name): libsndfile not loaded")
        }
    }

    @Test("AAC (m4a) and Opus, whose decoders do not give the same samples after a seek, are made in one pass")
    func inexactCodecsStayWhole() throws {
        let directory = try TestRig.temporaryDirectory()
        for (name, codec) in [("song.m4a", "aac"), ("song.opus", "libopus")] {
            let file = directory + "/" + name
            #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=300:duration=40", "-c:a", codec, file]).status == 0)
            let decoder = try AudioFileDecoder(path: file)
            #expect(!PeaksAnalysis.splitsIntoPieces(decoder, maximumFrames: .max, download: nil), "\(name) would be split")
        }
        // A FLAC of the same length is split.
        let flac = directory + "/song.flac"
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=300:duration=40", flac]).status == 0)
        #expect(PeaksAnalysis.splitsIntoPieces(try AudioFileDecoder(path: flac), maximumFrames: .max, download: nil))
    }

    @Test("a file whose header overstates its length still gets its exact overview (one pass after all)")
    func misstatedLength() throws {
        let directory = try TestRig.temporaryDirectory()
        let file = directory + "/short.flac"
        #expect(try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=300:duration=3", file]).status == 0)
        let decoder = try AudioFileDecoder(path: file)
        // Cuts past the end: the second piece has nothing, the first ends early.
        #expect(try PeaksAnalysis.analyze(path: file, reader: decoder, samplesPerPixel: 256, cuts: [1_000_192]) { _, _, _ in true } == nil)
    }

    @Test("cuts fall on pair edges; a piece moves its pairs to its place in the whole")
    func cutsAndJoin() {
        #expect(PeaksSegments.cuts(frameCount: 10_000, count: 2, samplesPerPixel: 256) == [4864])
        #expect(PeaksSegments.cuts(frameCount: 100_000, count: 4, samplesPerPixel: 256) == [24_832, 49_920, 74_752])
        #expect(PeaksSegments.cuts(frameCount: 300, count: 4, samplesPerPixel: 256) == [])
        #expect(PeaksSegments.cuts(frameCount: 10_000, count: 1, samplesPerPixel: 256) == [])
        // A piece moves its closed pairs out into the whole overview's storage at its own place.
        var builder = PeaksBuilder(sampleRate: 48000, channelCount: 1, samplesPerPixel: 4)
        let samples: [Float] = [0.5, -0.25, 0.125, 0, 1, -1, 0, 0, 0.75]
        samples.withUnsafeBufferPointer { builder.process(interleaved: $0, frames: 9) }
        let column = UnsafeMutableBufferPointer<PeakPair>.allocate(capacity: 4)
        defer { column.deallocate() }
        #expect(builder.movePairs(into: [column], at: 1) == 2)
        #expect(builder.peaks.length == 0)
        #expect(Array(column[1 ..< 3]) == [PeakPair(min: -0.25, max: 0.5), PeakPair(min: -1, max: 1)])
        _ = builder.finish()
        #expect(builder.movePairs(into: [column], at: 4) == nil, "past the end: nothing moves")
        #expect(builder.movePairs(into: [column], at: 3) == 1 && column[3] == PeakPair(min: 0.75, max: 0.75))
    }
}
