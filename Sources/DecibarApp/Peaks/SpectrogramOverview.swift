import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// A whole file's spectrogram (`decibar spectrogram`, and the scrubber with `--scrubber
/// spectrogram`): Hann-windowed 4096-point blocks overlapping by half or more, their powers kept
/// in a `SpectrogramHistory` (at most 4096 entries of 512 rows: 8 MiB, whatever the length).
enum SpectrogramOverview {
    struct Result: Sendable {
        var history: SpectrogramHistory
        var frames: Int
        var sampleRate: Int
        /// The entries the whole file will make (for drawing a part while the rest is analyzed).
        var expectedEntries: Int?
    }

    /// Analyzes `path`, about two blocks for each of `columns` columns; `progress` sees the result
    /// so far now and then and returns false to stop.
    /// Only the first `maximumFrames` frames count (render's --duration).
    static func analyze(path: String, columns: Int, maximumFrames: Int = .max, progress: (Result) -> Bool = { _ in true }) throws(CommandFailure) -> Result {
        let reader: any FrameReader
        do {
            if case .file(let file) = MediaLocation(path), let lossless = SoundFileReader(path: file) {
                reader = lossless
            } else {
                reader = try MediaOpener.decoder(for: path).0
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        guard let transform = FFTWTransform(length: SpectrogramState.fftLength) else {
            throw CommandFailure(message: "the spectrogram needs FFTW (libfftw3f)")
        }
        var analysis = SpectrogramAnalysis(sampleRate: reader.sampleRate, rowCount: SpectrogramState.rowCount, transform: transform)
        let fftLength = SpectrogramState.fftLength
        let estimated = min(maximumFrames, Int(reader.estimatedFrameCount ?? 0))
        let hop = estimated > 0 ? max(256, min(fftLength / 2, estimated / (2 * max(1, columns)))) : fftLength / 4
        var result = Result(history: SpectrogramHistory(rowCount: SpectrogramState.rowCount), frames: 0, sampleRate: reader.sampleRate,
                            expectedEntries: estimated > fftLength ? (estimated - fftLength) / hop + 1 : nil)
        var block = [Float](repeating: 0, count: SpectrogramState.rowCount)
        var pending: [Float] = []
        pending.reserveCapacity(fftLength + 1 << 16)
        let channels = reader.channelCount
        var lastReport = HostClock.now()
        var stopped = false
        do {
            while !stopped, result.frames < maximumFrames, try reader.read({ samples in
                let count = min(samples.count / channels, maximumFrames - result.frames)
                let scale = 1 / Float(channels)
                if channels == 1 {
                    pending.append(contentsOf: samples.prefix(count))
                } else {
                    for frame in 0 ..< count {
                        var sum: Float = 0
                        for channel in 0 ..< channels { sum += samples[frame * channels + channel] }
                        pending.append(sum * scale)
                    }
                }
                result.frames += count
                var start = 0
                while pending.count - start >= fftLength {
                    pending.withUnsafeBufferPointer { all in
                        block.withUnsafeMutableBufferPointer { column in
                            analysis.powers(of: UnsafeBufferPointer(rebasing: all[start ..< start + fftLength]), into: column)
                        }
                    }
                    block.withUnsafeBufferPointer { result.history.add($0) }
                    start += hop
                }
                pending.removeFirst(start)
            }) {
                let now = HostClock.now()
                if now - lastReport > 0.5 {
                    lastReport = now
                    stopped = !progress(result)
                }
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        if result.history.entryCount == 0 && result.frames > 0 {
            // Shorter than one block: the block padded with silence.
            pending += [Float](repeating: 0, count: fftLength - pending.count)
            pending.withUnsafeBufferPointer { all in block.withUnsafeMutableBufferPointer { analysis.powers(of: all, into: $0) } }
            block.withUnsafeBufferPointer { result.history.add($0) }
        }
        result.expectedEntries = result.history.entryCount
        return result
    }
}

/// The scrubber's spectrogram of a file, made on its own thread while it plays; the scrubber
/// draws what is ready.
final class SpectrogramJob: Sendable {
    struct Snapshot: Sendable {
        var result: SpectrogramOverview.Result?
        var isDone = false
        /// Bumped whenever `result` changes.
        var version = 0
    }

    let path: String
    private let state = Mutex(Snapshot())
    private let cancelled = Atomic<Bool>(false)

    init(path: String, columns: Int) {
        self.path = path
        let thread = Thread { [self] in
            let result = try? SpectrogramOverview.analyze(path: path, columns: columns) { partial in
                state.withLock { $0 = Snapshot(result: partial, isDone: false, version: $0.version + 1) }
                return !cancelled.load(ordering: .relaxed)
            }
            state.withLock { $0 = Snapshot(result: result ?? $0.result, isDone: true, version: $0.version + 1) }
        }
        thread.name = "decibar-spectrogram"
        thread.start()
    }

    var snapshot: Snapshot { state.withLock { $0 } }

    func cancel() { cancelled.store(true, ordering: .relaxed) }
}
