import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

extension PeaksAnalysis {
    /// Codecs whose decoders give, after a seek (with the decoder's half second of run-up), exactly
    /// the samples a pass from the start gives: pieces of their files decode apart and join with
    /// no difference (`OverviewPiecesTests` checks each). AAC and Opus are not among them: after
    /// a seek their decoders come close to the samples of a pass from the start, not to the bit.
    static let piecewiseCodecs: Set<String> = ["flac", "mp3", "mp3float", "vorbis"]

    /// A file shorter than this is decoded in one pass (a second decoder is not worth opening).
    static let minimumPieceSeconds = 30.0

    /// Whether `decoder`'s file can be split: a file (not a download) in a codec that seeks exactly,
    /// of known length, long enough, on a machine with more than one core.
    static func splitsIntoPieces(_ decoder: AudioFileDecoder, maximumFrames: Int64, download: StreamDownload?) -> Bool {
        guard download == nil, maximumFrames == .max, ProcessInfo.processInfo.activeProcessorCount > 1,
              let frames = decoder.estimatedFrameCount,
              Double(frames) >= minimumPieceSeconds * Double(decoder.sampleRate) else { return false }
        return piecewiseCodecs.contains(decoder.codecName) || decoder.codecName.hasPrefix("pcm_")
    }

    /// What the threads decoding later pieces share with the first.
    private final class PieceProgress: Sendable {
        let stopped = Atomic<Bool>(false)
        let framesDone = Atomic<Int64>(0)
        let outcomes = Mutex<[Int: Swift.Result<(peaks: Peaks, frames: Int64, reachedEnd: Bool), AudioFileError>]>([:])
    }

    /// The overview decoded in pieces that start at `cuts` (multiples of `samplesPerPixel`), the
    /// first on this thread with `decoder`, each later one on a thread of its own with a decoder
    /// of its own; nil when the pieces do not fit together (the file ended before a cut: its
    /// length was misstated), so the caller makes it in one pass instead.
    static func analyze(path: String, decoder: AudioFileDecoder, samplesPerPixel: Int, cuts: [Int64],
                        progress: (_ framesDone: Int64, _ estimatedFrames: Int64?, _ peaksSoFar: () -> Peaks) -> Bool)
        throws(AudioFileError) -> Result? {
        let shared = PieceProgress()
        let group = DispatchGroup()
        for (index, start) in cuts.enumerated() {
            let end = index + 1 < cuts.count ? cuts[index + 1] : Int64.max
            group.enter()
            let thread = Thread {
                let outcome = Swift.Result { () throws(AudioFileError) in
                    try piece(path: path, from: start, to: end, samplesPerPixel: samplesPerPixel, shared: shared)
                }
                shared.outcomes.withLock { $0[index + 1] = outcome }
                group.leave()
            }
            thread.name = "decibar-peaks-piece"
            thread.start()
        }
        defer {
            shared.stopped.store(true, ordering: .relaxed)
            group.wait()
        }

        // The first piece, here, reporting for all.
        let firstEnd = cuts.first ?? .max
        var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount, samplesPerPixel: samplesPerPixel)
        // Room for the whole overview: the later pieces are appended to this one's pairs.
        builder.reserveCapacity(forFrames: decoder.frameCountForReservation + decoder.frameCountForReservation / 100)
        var firstReachedEnd = false
        while builder.frameCount < firstEnd {
            let more = try decoder.read { samples in
                let frames = min(Int64(samples.count / decoder.channelCount), firstEnd - builder.frameCount)
                builder.process(interleaved: samples, frames: Int(frames))
            }
            if !more {
                firstReachedEnd = true
                break
            }
            let done = builder.frameCount + shared.framesDone.load(ordering: .relaxed)
            if !progress(done, decoder.estimatedFrameCount, { builder.peaks }) {
                let frames = builder.frameCount
                return Result(peaks: builder.finish(), frameCount: frames, reachedEnd: false)
            }
        }
        if firstReachedEnd && !cuts.isEmpty { return nil }
        group.wait()

        // Every piece but the last must have filled its span exactly.
        var pieces = [builder.finish()]
        var counts = [builder.frameCount]
        let outcomes = shared.outcomes.withLock { $0 }
        var reachedEnd = firstReachedEnd
        for index in cuts.indices.map({ $0 + 1 }) {
            guard let outcome = outcomes[index] else { return nil }
            let (peaks, frames, ended) = try outcome.get()
            let span = index < cuts.count ? cuts[index] - cuts[index - 1] : nil
            if let span, frames != span { return nil }
            pieces.append(peaks)
            counts.append(frames)
            reachedEnd = ended
        }
        guard let joined = PeaksSegments.join(&pieces, frameCounts: counts) else { return nil }
        return Result(peaks: joined, frameCount: counts.reduce(0, +), reachedEnd: reachedEnd)
    }

    /// One later piece: frames `start..<end` (to the end of the file for the last).
    private static func piece(path: String, from start: Int64, to end: Int64, samplesPerPixel: Int, shared: PieceProgress)
        throws(AudioFileError) -> (peaks: Peaks, frames: Int64, reachedEnd: Bool) {
        let decoder = try AudioFileDecoder(path: path)
        try decoder.seek(toFrame: start)
        var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount, samplesPerPixel: samplesPerPixel)
        let wanted = end == .max ? max(0, decoder.frameCountForReservation - start) : end - start
        builder.reserveCapacity(forFrames: min(wanted, max(0, decoder.frameCountForReservation - start)) + 4096)
        var reachedEnd = false
        while builder.frameCount < end - start, !shared.stopped.load(ordering: .relaxed) {
            let more = try decoder.read { samples in
                let frames = min(Int64(samples.count / decoder.channelCount), end - start - builder.frameCount)
                builder.process(interleaved: samples, frames: Int(frames))
                shared.framesDone.add(frames, ordering: .relaxed)
            }
            if !more {
                reachedEnd = true
                break
            }
        }
        let frames = builder.frameCount
        return (builder.finish(), frames, reachedEnd)
    }
}
