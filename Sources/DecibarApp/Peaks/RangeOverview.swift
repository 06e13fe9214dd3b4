import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// A finer overview of just the stretch a zoomed scrubber shows, for when the stored overview (256
/// samples a pair) is coarser than a column there: a low rate with thin bars (at 8 kHz a pair is
/// 32 ms; a column can be 10 ms). Decoded on a thread of its own, never the frame thread; memory
/// is the stretch's pairs alone, never its audio.
final class RangeOverview: Sendable {
    let path: String
    /// The stretch asked for, in seconds, and the samples summed into each pair.
    let start: Double
    let end: Double
    let samplesPerPixel: Int
    /// The pairs from `start` on, once decoded (nil before, or when the file could not be read there).
    private let result = Mutex<Peaks?>(nil)
    private let cancelled = Atomic<Bool>(false)

    init(path: String, from start: Double, to end: Double, samplesPerPixel: Int) {
        self.path = path
        self.start = start
        self.end = end
        self.samplesPerPixel = max(1, samplesPerPixel)
        let thread = Thread { [self] in run() }
        thread.name = "decibar-zoom"
        thread.start()
    }

    var peaks: Peaks? { result.withLock { $0 } }

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    /// Whether this covers `from`...`to` at least as finely as `samplesPerPixel`.
    func covers(from: Double, to: Double, samplesPerPixel wanted: Int) -> Bool {
        start <= from && end >= to && samplesPerPixel <= max(1, wanted)
    }

    private func run() {
        guard let decoder = try? AudioFileDecoder(path: path) else { return }
        let rate = Double(decoder.sampleRate)
        let first = Int64((start * rate).rounded(.down))
        var remaining = Int64(((end - start) * rate).rounded(.up))
        var builder = PeaksBuilder(sampleRate: decoder.sampleRate, channelCount: decoder.channelCount, samplesPerPixel: samplesPerPixel)
        builder.reserveCapacity(forFrames: remaining)
        do {
            try decoder.seek(toFrame: first)
            var more = true
            while more, remaining > 0, !cancelled.load(ordering: .relaxed) {
                more = try decoder.read { samples in
                    let frames = min(Int64(samples.count / decoder.channelCount), remaining)
                    builder.process(interleaved: UnsafeBufferPointer(rebasing: samples[..<(Int(frames) * decoder.channelCount)]),
                                    frames: Int(frames))
                    remaining -= frames
                }
            }
        } catch {
            return
        }
        guard !cancelled.load(ordering: .relaxed) else { return }
        let peaks = builder.finish()
        result.withLock { $0 = peaks }
    }
}
