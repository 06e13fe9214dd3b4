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

    @Test("pieces equal one pass to 0 LSB", arguments: [
        ("wav", ["-c:a", "pcm_s16le"]), ("aiff", ["-c:a", "pcm_s24be"]), ("flac", []), ("mp3", ["-c:a", "libmp3lame", "-b:a", "192k"]),
        ("ogg", ["-c:a", "libvorbis", "-q:a", "5"]),
    ])
    func piecesEqualOnePass(format: String, codec: [String]) throws {
        let directory = try TestRig.temporaryDirectory()
        let source = directory + "/source.wav", file = directory + "/song." + format
        // Music-like: a kick, a chord that moves, noise bursts (hats), 12 s.
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i",
            "aevalsrc=0.6*sin(2*PI*(50+90*exp(-25*mod(t\\,0.5)))*t)*exp(-7*mod(t\\,0.5))+0.15*sin(2*PI*(220+55*floor(t/3))*t)+0.1*(random(0)-0.5)*exp(-40*mod(t\\,0.25))"
            + "|0.5*sin(2*PI*(55+80*exp(-25*mod(t\\,0.5)))*t)*exp(-7*mod(t\\,0.5))+0.15*sin(2*PI*(330+55*floor(t/3))*t)+0.1*(random(1)-0.5)*exp(-40*mod(t\\,0.25)):s=44100:d=12",
            source])
        #expect(made.status == 0, "\(made.error)")
        let encoded = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-i", source] + codec + [file])
        #expect(encoded.status == 0, "\(encoded.error)")

        let whole = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, inOnePass: true)
        for cuts in [Self.cuts, [Self.cuts[1]]] {
            let decoder = try AudioFileDecoder(path: file)
            let pieces = try #require(try PeaksAnalysis.analyze(path: file, decoder: decoder, samplesPerPixel: 256, cuts: cuts) { _, _, _ in true },
                                      "\(format): the pieces did not fit together")
            #expect(pieces.frameCount == whole.frameCount && pieces.reachedEnd)
            #expect(pieces.peaks.length == whole.peaks.length, "\(format): \(pieces.peaks.length) pairs against \(whole.peaks.length)")
            var differing = 0
            for channel in 0 ..< whole.peaks.channelCount {
                for (a, b) in zip(pieces.peaks.pairs[channel], whole.peaks.pairs[channel]) where a != b { differing += 1 }
            }
            #expect(differing == 0, "\(format), cuts \(cuts): \(differing) pairs differ from one pass")
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
        #expect(try PeaksAnalysis.analyze(path: file, decoder: decoder, samplesPerPixel: 256, cuts: [1_000_192]) { _, _, _ in true } == nil)
    }

    @Test("cuts fall on pair edges and pieces join in order; mismatched pieces do not join")
    func cutsAndJoin() {
        #expect(PeaksSegments.cuts(frameCount: 10_000, count: 2, samplesPerPixel: 256) == [4864])
        #expect(PeaksSegments.cuts(frameCount: 100_000, count: 4, samplesPerPixel: 256) == [24_832, 49_920, 74_752])
        #expect(PeaksSegments.cuts(frameCount: 300, count: 4, samplesPerPixel: 256) == [])
        #expect(PeaksSegments.cuts(frameCount: 10_000, count: 1, samplesPerPixel: 256) == [])
        let a = Peaks(sampleRate: 48000, samplesPerPixel: 256, channelCount: 1, pairs: [[PeakPair(min: -1, max: 1)]])
        let b = Peaks(sampleRate: 48000, samplesPerPixel: 256, channelCount: 1, pairs: [[PeakPair(min: -0.5, max: 0.25)]])
        var pieces = [a, b]
        #expect(PeaksSegments.join(&pieces, frameCounts: [200, 100]) == nil && pieces.count == 2)
        #expect(PeaksSegments.join(&pieces, frameCounts: [256, 100])?.pairs == [[PeakPair(min: -1, max: 1), PeakPair(min: -0.5, max: 0.25)]])
        #expect(pieces.isEmpty)
        var mismatched = [a, Peaks(sampleRate: 44100, samplesPerPixel: 256, channelCount: 1, pairs: [[]])]
        #expect(PeaksSegments.join(&mismatched, frameCounts: [256, 0]) == nil)
    }
}
