import DecibarAudio
import DecibarCore
import Foundation

/// The lines of `decibar levels` on a live source: a line for every 1/rate seconds of audio
/// captured, its t the capture time of its last sample since `start`. Standalone `levels` and each
/// of the daemon's subscribers run one.
struct LiveLines {
    private var lines: LineMaker
    private var processor = LevelProcessor(channelCount: 2)
    private var clock: LineClock
    private let start: Double

    init(settings: LevelsSettings, rate: Double, start: Double, output: @escaping ([UInt8]) -> Void = { writeBytes($0) }) {
        lines = LineMaker(settings, output: output)
        clock = LineClock(rate: rate)
        self.start = start
    }

    mutating func add(_ buffer: AudioBuffer) {
        if lines.needsLevels { processor.process(buffer) }
        let start = self.start
        lines.add(buffer) { $0 - start }
        if clock.add(frames: buffer.frameCount, sampleRate: buffer.sampleRate) {
            let captured = buffer.captureTime > 0 ? buffer.captureTime : MonotonicClock.now()
            lines.write(time: clock.lineTime(captured - start), reading: processor.takeReading())
        }
    }
}
