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

    /// - Parameters:
    ///   - maximumFrames: analyze at most this many frames from the start.
    ///   - progress: called after each decoded chunk with the frames done, the decoder's estimate of
    ///     the total and a way to take the peaks so far; returning false stops the analysis.
    static func analyze(path: String, samplesPerPixel: Int, maximumFrames: Int64 = .max, following download: StreamDownload? = nil,
                        inOnePass: Bool = false,
                        progress: (_ framesDone: Int64, _ estimatedFrames: Int64?, _ peaksSoFar: () -> Peaks) -> Bool = { _, _, _ in true })
        throws(AudioFileError) -> Result {
        // An address already being fetched is read from that download, not fetched again.
        let (decoder, ownDownload) = try MediaOpener.decoder(for: path, following: download)
        defer { ownDownload?.cancel() }
        // A long file on disk decodes in pieces, one a core, joined exactly.
        if !inOnePass, splitsIntoPieces(decoder, maximumFrames: maximumFrames, download: download ?? ownDownload) {
            let cuts = PeaksSegments.cuts(frameCount: decoder.estimatedFrameCount ?? 0, count: min(4, ProcessInfo.processInfo.activeProcessorCount),
                                          samplesPerPixel: samplesPerPixel)
            if let result = try analyze(path: path, decoder: decoder, samplesPerPixel: samplesPerPixel, cuts: cuts, progress: progress) {
                return result
            }
            // The file's stated length was wrong: one pass after all.
            return try analyze(path: path, samplesPerPixel: samplesPerPixel, maximumFrames: maximumFrames, following: download, inOnePass: true, progress: progress)
        }
        var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount,
                                   samplesPerPixel: samplesPerPixel)
        let reservation = min(decoder.frameCountForReservation, maximumFrames)
        builder.reserveCapacity(forFrames: reservation + reservation / 100)
        var stopped = false
        while builder.frameCount < maximumFrames, try decoder.read({ samples in
            let frames = min(Int64(samples.count / decoder.channelCount), maximumFrames - builder.frameCount)
            builder.process(interleaved: samples, frames: Int(frames))
        }) {
            if !progress(builder.frameCount, decoder.estimatedFrameCount, { builder.peaks }) {
                stopped = true
                break
            }
        }
        // Cut at `maximumFrames` exactly: the end counts as reached only if nothing follows.
        var reachedEnd = !stopped
        if reachedEnd && builder.frameCount >= maximumFrames { reachedEnd = !(try decoder.read { _ in }) }
        let frames = builder.frameCount
        return Result(peaks: builder.finish(), frameCount: frames, reachedEnd: reachedEnd)
    }
}
