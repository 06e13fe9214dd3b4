import DecibarCore
import Foundation

/// Test signals, cut into 256-frame buffers the way a tap delivers them.
enum Signals {
    /// A sine of `amplitude` at `frequency` Hz, the same on every channel, interleaved.
    static func sine(amplitude: Double, frequency: Double = 1000, sampleRate: Double = 48000,
                     seconds: Double = 1, channels: Int = 2) -> [Float] {
        let frames = Int(seconds * sampleRate)
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0 ..< frames {
            let value = Float(amplitude * sin(2 * Double.pi * frequency * Double(frame) / sampleRate))
            for channel in 0 ..< channels { samples[frame * channels + channel] = value }
        }
        return samples
    }

    static func buffers(_ samples: [Float], channels: Int) -> [AudioBuffer] {
        var rechunker = Rechunker(channelCount: channels, sampleRate: 48000)
        var result: [AudioBuffer] = []
        samples.withUnsafeBufferPointer { rechunker.append($0) { result.append($0) } }
        rechunker.flush { result.append($0) }
        return result
    }

    static func reading(of samples: [Float], channels: Int = 2) -> LevelReading {
        var processor = LevelProcessor(channelCount: channels)
        for buffer in buffers(samples, channels: channels) { processor.process(buffer) }
        return processor.takeReading()
    }
}
