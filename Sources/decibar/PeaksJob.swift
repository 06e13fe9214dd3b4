import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// Computes a file's overview on its own thread while the file plays; the scrubber draws what is
/// ready. Memory holds the peaks (about 80 KB per hour of stereo), never the audio.
final class PeaksJob: Sendable {
    struct Snapshot: Sendable {
        var peaks: Peaks?
        /// 0...1, how much of the file is analysed.
        var progress: Double = 0
        var isDone = false
        /// Bumped whenever `peaks` changes, so the view recomputes columns only then.
        var version = 0
    }

    private let state = Mutex(Snapshot())
    private let cancelled = Mutex(false)

    init(path: String, samplesPerPixel: Int = 256) {
        if let cached = PeaksCache.load(for: path), cached.samplesPerPixel == samplesPerPixel {
            state.withLock { $0 = Snapshot(peaks: cached, progress: 1, isDone: true, version: 1) }
            return
        }
        let thread = Thread { [self] in run(path: path, samplesPerPixel: samplesPerPixel) }
        thread.name = "decibar-peaks"
        thread.start()
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func cancel() { cancelled.withLock { $0 = true } }

    private func run(path: String, samplesPerPixel: Int) {
        var lastPublished = HostClock.now()
        var expectedFrames: Int64 = 0
        do {
            let decoder = try AudioFileDecoder(path: path)
            expectedFrames = max(1, decoder.estimatedFrameCount ?? 1)
            var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount,
                                       samplesPerPixel: samplesPerPixel)
            builder.reserveCapacity(forFrames: expectedFrames + expectedFrames / 100)
            while try decoder.read({ builder.process(interleaved: $0, frames: $0.count / decoder.channelCount) }) {
                if cancelled.withLock({ $0 }) { return }
                let now = HostClock.now()
                if now - lastPublished > 0.1 {
                    lastPublished = now
                    let partial = builder.peaks
                    let progress = min(1, Double(builder.frameCount) / Double(expectedFrames))
                    state.withLock { $0 = Snapshot(peaks: partial, progress: progress, isDone: false, version: $0.version + 1) }
                }
            }
            let finished = builder.finish()
            state.withLock { $0 = Snapshot(peaks: finished, progress: 1, isDone: true, version: $0.version + 1) }
            PeaksCache.store(finished, for: path)
        } catch {
            state.withLock { $0.isDone = true }
        }
    }
}
