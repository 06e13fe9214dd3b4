import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// Computes a file's overview on its own thread while the file plays; the scrubber draws what is
/// ready. Memory holds the peaks (about 80 KB per hour of stereo), never the audio.
final class PeaksJob: Sendable {
    struct Snapshot: Sendable {
        var peaks: Peaks?
        /// 0...1, how much of the file is analyzed.
        var progress: Double = 0
        var isDone = false
        /// The exact frames of the file, once the whole of it is analyzed.
        var frameCount: Int64?
        /// Bumped whenever `peaks` changes, so the view recomputes columns only then.
        var version = 0
    }

    private let state = Mutex(Snapshot())
    private let cancelled = Atomic<Bool>(false)

    /// - Parameter download: for an address, the download the player reads (followed, never fetched twice).
    init(path: String, audio: PeaksCache.Audio, samplesPerPixel: Int = 256, following download: StreamDownload? = nil) {
        if let cached = PeaksCache.load(for: path, audio: audio, samplesPerPixel: samplesPerPixel, stream: download) {
            state.withLock { $0 = Snapshot(peaks: cached.peaks, progress: 1, isDone: true, frameCount: cached.frameCount, version: 1) }
            return
        }
        let thread = Thread { [self] in run(path: path, samplesPerPixel: samplesPerPixel, following: download) }
        thread.name = "decibar-peaks"
        thread.start()
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    private func run(path: String, samplesPerPixel: Int, following download: StreamDownload?) {
        var lastPublished = HostClock.now()
        do {
            let result = try PeaksAnalysis.analyze(path: path, samplesPerPixel: samplesPerPixel, following: download) { done, estimate, peaksSoFar in
                if cancelled.load(ordering: .relaxed) { return false }
                let now = HostClock.now()
                if now - lastPublished > 0.1 {
                    lastPublished = now
                    let partial = peaksSoFar()
                    let progress = min(1, Double(done) / Double(max(1, estimate ?? 1)))
                    state.withLock { $0 = Snapshot(peaks: partial, progress: progress, isDone: false, version: $0.version + 1) }
                }
                return true
            }
            guard result.reachedEnd else { return }
            state.withLock {
                $0 = Snapshot(peaks: result.peaks, progress: 1, isDone: true, frameCount: result.frameCount, version: $0.version + 1)
            }
            PeaksCache.store(result.peaks, frameCount: result.frameCount, for: path, stream: download)
        } catch {
            state.withLock { $0.isDone = true }
        }
    }
}
