import DecibarAudio
import DecibarCore
import Foundation

/// Decodes a file (or its beginning) into peaks, streaming: memory holds the peaks, never the audio,
/// and is reserved by what the file's size allows, never by what its header claims.
enum PeaksAnalysis {
    struct Result {
        var peaks: Peaks
        /// Frames analyzed.
        var frameCount: Int64
        /// True when the whole file was analyzed (not stopped, not cut at `maximumFrames`).
        var reachedEnd: Bool
    }

    typealias Progress = (_ framesDone: Int64, _ estimatedFrames: Int64?, _ peaksSoFar: () -> Peaks) -> Bool

    /// - Parameters:
    ///   - maximumFrames: analyze at most this many frames from the start.
    ///   - inOnePass: never split the file into pieces.
    ///   - usingFFmpeg: decode with FFmpeg even a file libsndfile reads.
    ///   - progress: called after each decoded chunk with the frames done, the decoder's estimate of
    ///     the total and a way to take the peaks so far; returning false stops the analysis.
    static func analyze(path: String, samplesPerPixel: Int, maximumFrames: Int64 = .max, following download: StreamDownload? = nil,
                        inOnePass: Bool = false, usingFFmpeg: Bool = false, progress: Progress = { _, _, _ in true })
        throws(AudioFileError) -> Result {
        // A lossless file on disk is read by libsndfile, and FFmpeg is not even loaded.
        if !usingFFmpeg, download == nil, case .file(let file) = MediaLocation(path), let reader = SoundFileReader(path: file) {
            let whole = maximumFrames == .max
            if let result = try overview(of: reader, path: file, samplesPerPixel: samplesPerPixel, maximumFrames: maximumFrames,
                                         inPieces: !inOnePass && splitsIntoPieces(reader, seeksExactly: true, maximumFrames: maximumFrames, download: nil),
                                         reopen: { path throws(AudioFileError) in
                                             guard let reader = SoundFileReader(path: path) else { throw AudioFileError(path: path, reason: "cannot open it again") }
                                             return reader
                                         }, progress: progress),
               // libsndfile stopping short of the stated length means damage, which FFmpeg decodes past.
               !result.reachedEnd || !whole || result.frameCount == reader.frameCount {
                return result
            }
            return try analyze(path: path, samplesPerPixel: samplesPerPixel, maximumFrames: maximumFrames, inOnePass: inOnePass,
                               usingFFmpeg: true, progress: progress)
        }
        // An address already being fetched is read from that download, not fetched again.
        let (decoder, ownDownload) = try MediaOpener.decoder(for: path, following: download)
        defer { ownDownload?.cancel() }
        // A long file on disk decodes in pieces, one a core, joined exactly.
        let inPieces = !inOnePass && splitsIntoPieces(decoder, maximumFrames: maximumFrames, download: download ?? ownDownload)
        if let result = try overview(of: decoder, path: path, samplesPerPixel: samplesPerPixel, maximumFrames: maximumFrames, inPieces: inPieces,
                                     reopen: { path throws(AudioFileError) in try AudioFileDecoder(path: path) }, progress: progress) {
            return result
        }
        // The file's stated length was wrong: one pass after all.
        return try analyze(path: path, samplesPerPixel: samplesPerPixel, maximumFrames: maximumFrames, following: download,
                           inOnePass: true, usingFFmpeg: true, progress: progress)
    }

    /// The overview of all that `source` gives (standard input), in one pass: it cannot seek.
    static func analyze(source: any AudioByteSource, name: String, samplesPerPixel: Int) throws(AudioFileError) -> Result {
        let decoder = try AudioFileDecoder(source: source, name: name)
        guard let result = try overview(of: decoder, path: name, samplesPerPixel: samplesPerPixel, maximumFrames: .max, inPieces: false,
                                        reopen: { path throws(AudioFileError) in throw AudioFileError(path: path, reason: "cannot be read again") },
                                        progress: { _, _, _ in true }) else {
            throw AudioFileError(path: name, reason: "cannot be analyzed")
        }
        return result
    }

    /// The overview of what `reader` reads, in pieces or in one pass; nil when pieces did not fit.
    private static func overview(of reader: some FrameReader, path: String, samplesPerPixel: Int, maximumFrames: Int64, inPieces: Bool,
                                 reopen: @escaping @Sendable (String) throws(AudioFileError) -> any FrameReader,
                                 progress: Progress) throws(AudioFileError) -> Result? {
        if inPieces {
            let cuts = PeaksSegments.cuts(frameCount: reader.estimatedFrameCount ?? 0, count: min(4, ProcessInfo.processInfo.activeProcessorCount),
                                          samplesPerPixel: samplesPerPixel)
            return try analyze(path: path, reader: reader, samplesPerPixel: samplesPerPixel, cuts: cuts, reopen: reopen, progress: progress)
        }
        var builder = PeaksBuilder(sampleRate: reader.sampleRate, channelCount: reader.channelCount, samplesPerPixel: samplesPerPixel)
        let reservation = min(reader.frameCountForReservation, maximumFrames)
        builder.reserveCapacity(forFrames: reservation + reservation / 100)
        var stopped = false
        while builder.frameCount < maximumFrames, try reader.read({ samples in
            let frames = min(Int64(samples.count / reader.channelCount), maximumFrames - builder.frameCount)
            builder.process(interleaved: samples, frames: Int(frames))
        }) {
            if !progress(builder.frameCount, reader.estimatedFrameCount, { builder.peaks }) {
                stopped = true
                break
            }
        }
        // Cut at `maximumFrames` exactly: the end counts as reached only if nothing follows.
        var reachedEnd = !stopped
        if reachedEnd && builder.frameCount >= maximumFrames { reachedEnd = !(try reader.read { _ in }) }
        let frames = builder.frameCount
        return Result(peaks: builder.finish(), frameCount: frames, reachedEnd: reachedEnd)
    }
}
