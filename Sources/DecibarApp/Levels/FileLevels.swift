import DecibarAudio
import DecibarCore
import Foundation

/// `levels --file`: decode, re-chunk and measure as fast as the decoder goes.
public struct FileLevels {
    let path: String
    let rate: Double
    let duration: Double?
    let settings: LevelsSettings
    var lines: LineMaker

    /// - Parameter output: takes each line's bytes (standard output unless told otherwise).
    public init(path: String, rate: Double, duration: Double?, settings: LevelsSettings,
                output: @escaping ([UInt8]) -> Void = { writeBytes($0) }) {
        self.path = path
        self.rate = rate
        self.duration = duration
        self.settings = settings
        lines = LineMaker(settings, output: output)
    }

    public func run() throws {
        try settings.checkLibraries()
        let decoder: AudioFileDecoder
        do {
            decoder = try MediaOpener.decoder(for: path).0
        } catch {
            throw CommandFailure(message: error.description)
        }
        let sampleRate = Double(decoder.sampleRate)
        let lastFrame = duration.map { Int64(saturating: ($0 * sampleRate).rounded()) } ?? Int64.max
        var rechunker = Rechunker(channelCount: decoder.channelCount, sampleRate: decoder.sampleRate)
        var processor = LevelProcessor(channelCount: decoder.channelCount)
        var framesDone: Int64 = 0
        var clock = LineClock(rate: rate)

        var lines = self.lines
        func consume(_ buffer: AudioBuffer) {
            guard framesDone < lastFrame else { return }
            if lines.needsLevels { processor.process(buffer) }
            lines.add(buffer) { $0 }
            framesDone += Int64(buffer.frameCount)
            // The last line ends where --duration does, whatever the rate.
            if clock.add(frames: buffer.frameCount, sampleRate: buffer.sampleRate) || framesDone >= lastFrame {
                lines.write(time: Double(framesDone) / sampleRate, reading: processor.takeReading())
                clock.closeLine()
            }
        }

        do {
            while framesDone < lastFrame, try decoder.read({ samples in rechunker.append(samples, emit: consume) }) {}
        } catch {
            throw CommandFailure(message: error.description)
        }
        rechunker.flush(emit: consume)
        if clock.framesSinceLine > 0 {
            lines.write(time: Double(framesDone) / sampleRate, reading: processor.takeReading())
        }
    }
}
