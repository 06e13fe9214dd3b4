import DecibarAudio
import DecibarCore

/// `scale --keep-pitch`: Rubber Band's offline mode, which changes the duration and keeps the
/// pitch. It wants the whole input studied first (`study`), then the same input again
/// (`process`); the output is cut or padded to exactly the seed's length, `Int(count * F)`.
struct PitchKeepingScaler: ScalingStage {
    let channelCount: Int
    let factor: Double
    /// The seed's length for the input studied (known once the study is over).
    private(set) var outputCount = 0
    private(set) var studiedFrames = 0
    private let stretcher: TimeStretcher
    private(set) var receivedFrames = 0
    private(set) var emittedFrames = 0
    private var retrieved: [Float]
    private var converted: [Double]

    static let blockFrames = 4096

    /// Nil when Rubber Band cannot be set up for this audio.
    init?(sampleRate: Int, channelCount: Int, factor: Double) {
        guard let stretcher = TimeStretcher(sampleRate: sampleRate, channelCount: channelCount, mode: .offline, timeRatio: factor) else {
            return nil
        }
        self.stretcher = stretcher
        self.channelCount = channelCount
        self.factor = factor
        retrieved = Array(repeating: 0, count: Self.blockFrames * channelCount)
        converted = Array(repeating: 0, count: Self.blockFrames * channelCount)
    }

    /// The first pass: every input frame, in order.
    mutating func study(_ input: UnsafeBufferPointer<Float>) {
        stretcher.study(input, isFinal: false)
        studiedFrames += input.count / channelCount
    }

    mutating func finishStudy() {
        stretcher.study(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
        outputCount = TimeScaleRamp(inputCount: studiedFrames, factor: factor).outputCount
    }

    mutating func process(_ input: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Double>) -> Void) {
        stretcher.process(input, isFinal: false)
        receivedFrames += input.count / channelCount
        drain(emit: emit)
    }

    mutating func finish(emit: (UnsafeBufferPointer<Double>) -> Void) {
        stretcher.process(UnsafeBufferPointer(start: nil, count: 0), isFinal: true)
        drain(emit: emit)
        // Rubber Band's length can differ from the seed's by a few frames: pad with silence.
        converted.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        while emittedFrames < outputCount {
            let frames = min(Self.blockFrames, outputCount - emittedFrames)
            converted.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[..<(frames * channelCount)])) }
            emittedFrames += frames
        }
    }

    /// Hands on everything ready, up to the seed's length.
    private mutating func drain(emit: (UnsafeBufferPointer<Double>) -> Void) {
        while stretcher.available > 0 {
            let frames = retrieved.withUnsafeMutableBufferPointer {
                stretcher.retrieve(into: $0.baseAddress!, frames: Self.blockFrames)
            }
            guard frames > 0 else { break }
            let kept = min(frames, outputCount - emittedFrames)
            guard kept > 0 else { continue }
            for index in 0 ..< kept * channelCount { converted[index] = Double(retrieved[index]) }
            converted.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[..<(kept * channelCount)])) }
            emittedFrames += kept
        }
    }
}
