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
        let exact = piecewiseCodecs.contains(decoder.codecName) || decoder.codecName.hasPrefix("pcm_")
        return splitsIntoPieces(decoder, seeksExactly: exact, maximumFrames: maximumFrames, download: download)
    }

    static func splitsIntoPieces(_ reader: some FrameReader, seeksExactly: Bool, maximumFrames: Int64, download: StreamDownload?) -> Bool {
        guard seeksExactly, download == nil, maximumFrames == .max, ProcessInfo.processInfo.activeProcessorCount > 1,
              let frames = reader.estimatedFrameCount else { return false }
        return Double(frames) >= minimumPieceSeconds * Double(reader.sampleRate)
    }

    /// What the threads decoding later pieces share with the first.
    private final class PieceProgress: Sendable {
        let stopped = Atomic<Bool>(false)
        let framesDone = Atomic<Int64>(0)
        /// Each later piece's frames, pairs and end, or nil if it ran past the room the file's size allows.
        let outcomes = Mutex<[Int: Swift.Result<(frames: Int64, pairs: Int, reachedEnd: Bool)?, AudioFileError>]>([:])
    }

    /// The whole overview's storage, one column of pairs per channel, which every piece fills at its
    /// own place. Unchecked: each piece writes only its own range of pairs, and the columns are read
    /// only after every piece's thread has finished (`DispatchGroup.wait`).
    private final class Columns: @unchecked Sendable {
        let buffers: [UnsafeMutableBufferPointer<PeakPair>]
        init(_ buffers: [UnsafeMutableBufferPointer<PeakPair>]) { self.buffers = buffers }
    }

    /// The overview decoded in pieces that start at `cuts` (multiples of `samplesPerPixel`), the
    /// first on this thread with `reader`, each later one on a thread of its own with a reader of
    /// its own (`reopen`); nil when the pieces do not fit together (the file ended before a cut, or
    /// ran past the room its size allows: its length was misstated), so the caller makes it in one
    /// pass instead. The pieces write straight into the overview's arrays: nothing is joined.
    static func analyze(path: String, reader: some FrameReader, samplesPerPixel: Int, cuts: [Int64],
                        reopen: @escaping @Sendable (String) throws(AudioFileError) -> any FrameReader = { path throws(AudioFileError) in try AudioFileDecoder(path: path) },
                        progress: Progress)
        throws(AudioFileError) -> Result? {
        let reservation = reader.frameCountForReservation + reader.frameCountForReservation / 100
        let capacity = Int(reservation / Int64(samplesPerPixel)) + 2
        var outcome: Swift.Result<(length: Int, frames: Int64, reachedEnd: Bool)?, AudioFileError> = .success(nil)
        let pairs = withColumns(reader.channelCount, capacity: capacity) { buffers in
            outcome = Swift.Result { () throws(AudioFileError) in
                try fill(Columns(buffers), path: path, reader: reader, samplesPerPixel: samplesPerPixel, cuts: cuts, reopen: reopen, progress: progress)
            }
            if case .success(let filled?) = outcome { return filled.length }
            return 0
        }
        guard let filled = try outcome.get() else { return nil }
        let peaks = Peaks(sampleRate: reader.sampleRate, samplesPerPixel: samplesPerPixel, channelCount: reader.channelCount, pairs: pairs)
        return Result(peaks: peaks, frameCount: filled.frames, reachedEnd: filled.reachedEnd)
    }

    /// Arrays of `capacity` uninitialized pairs, one per channel, that `body` fills and gives the
    /// length of: made one inside another, so that the arrays' own storage is what `body` writes.
    private static func withColumns(_ channels: Int, capacity: Int,
                                    _ body: ([UnsafeMutableBufferPointer<PeakPair>]) -> Int) -> [[PeakPair]] {
        var length = 0
        func nest(_ outer: [UnsafeMutableBufferPointer<PeakPair>]) -> [[PeakPair]] {
            if outer.count == channels {
                length = body(outer)
                return []
            }
            var inner: [[PeakPair]] = []
            let column = [PeakPair](unsafeUninitializedCapacity: capacity) { buffer, count in
                inner = nest(outer + [buffer])
                count = length
            }
            return [column] + inner
        }
        return nest([])
    }

    /// Fills `columns` from every piece: the overview's length in pairs, its frames and whether
    /// the end was reached; nil when the pieces do not fit together.
    private static func fill(_ columns: Columns, path: String, reader: some FrameReader, samplesPerPixel: Int, cuts: [Int64],
                             reopen: @escaping @Sendable (String) throws(AudioFileError) -> any FrameReader,
                             progress: Progress) throws(AudioFileError) -> (length: Int, frames: Int64, reachedEnd: Bool)? {
        let shared = PieceProgress()
        let group = DispatchGroup()
        for (index, start) in cuts.enumerated() {
            let end = index + 1 < cuts.count ? cuts[index + 1] : Int64.max
            group.enter()
            let thread = Thread {
                let outcome = Swift.Result { () throws(AudioFileError) in
                    try piece(try reopen(path), from: start, to: end, samplesPerPixel: samplesPerPixel, into: columns, shared: shared)
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
        var builder = PeaksBuilder(sampleRate: reader.sampleRate, channelCount: reader.channelCount, samplesPerPixel: samplesPerPixel)
        var written = 0
        var firstReachedEnd = false
        while builder.frameCount < firstEnd {
            let more = try reader.read { samples in
                let frames = min(Int64(samples.count / reader.channelCount), firstEnd - builder.frameCount)
                builder.process(interleaved: samples, frames: Int(frames))
            }
            guard let moved = builder.movePairs(into: columns.buffers, at: written) else { return nil }
            written += moved
            if !more {
                firstReachedEnd = true
                break
            }
            let done = builder.frameCount + shared.framesDone.load(ordering: .relaxed)
            let soFar = written
            if !progress(done, reader.estimatedFrameCount, {
                Peaks(sampleRate: reader.sampleRate, samplesPerPixel: samplesPerPixel, channelCount: reader.channelCount,
                      pairs: columns.buffers.map { Array($0[0 ..< soFar]) })
            }) {
                return (written, builder.frameCount, false)
            }
        }
        if firstReachedEnd && !cuts.isEmpty { return nil }
        _ = builder.finish()
        guard let moved = builder.movePairs(into: columns.buffers, at: written) else { return nil }
        written += moved
        group.wait()

        // Every piece but the last must have filled its span exactly.
        let outcomes = shared.outcomes.withLock { $0 }
        var frames = builder.frameCount
        var reachedEnd = firstReachedEnd
        for index in cuts.indices.map({ $0 + 1 }) {
            guard let outcome = outcomes[index] else { return nil }
            guard let piece = try outcome.get() else { return nil }
            if index < cuts.count, piece.frames != cuts[index] - cuts[index - 1] { return nil }
            frames += piece.frames
            written = Int(cuts[index - 1] / Int64(samplesPerPixel)) + piece.pairs
            reachedEnd = piece.reachedEnd
        }
        return (written, frames, reachedEnd)
    }

    /// One later piece: frames `start..<end` (to the end of the file for the last), its pairs
    /// written into `columns` from `start / samplesPerPixel` on.
    private static func piece(_ reader: any FrameReader, from start: Int64, to end: Int64, samplesPerPixel: Int, into columns: Columns,
                              shared: PieceProgress) throws(AudioFileError) -> (frames: Int64, pairs: Int, reachedEnd: Bool)? {
        try reader.seek(toFrame: start)
        var builder = PeaksBuilder(sampleRate: reader.sampleRate, channelCount: reader.channelCount, samplesPerPixel: samplesPerPixel)
        let first = Int(start / Int64(samplesPerPixel))
        var written = 0
        var reachedEnd = false
        func move() -> Bool {
            guard let moved = builder.movePairs(into: columns.buffers, at: first + written) else { return false }
            written += moved
            return true
        }
        while builder.frameCount < end - start, !shared.stopped.load(ordering: .relaxed) {
            let more = try reader.read { samples in
                let frames = min(Int64(samples.count / reader.channelCount), end - start - builder.frameCount)
                builder.process(interleaved: samples, frames: Int(frames))
                shared.framesDone.add(frames, ordering: .relaxed)
            }
            guard move() else { return nil }
            if !more {
                reachedEnd = true
                break
            }
        }
        _ = builder.finish()
        guard move() else { return nil }
        return (builder.frameCount, written, reachedEnd)
    }
}
