/// Seed 001's time scaling as a stream: interleaved frames go in as they are decoded, in blocks
/// of any size, and the scaled frames come out as soon as the input they read has arrived. Every
/// channel is scaled alike by the same control points (`TimeScaleRamp`), each from its own
/// samples. Memory is one block of output and one frame of input, however long the signal.
///
/// The input's length must be known before the first frame (the points depend on it); a caller
/// that learns it was wrong (`receivedFrames != ramp.inputCount` at the end) scales again with
/// the right count.
public struct LinearTimeScaler: Sendable {
    public let ramp: TimeScaleRamp
    public let channelCount: Int
    /// Input frames received so far.
    public private(set) var receivedFrames = 0
    /// Output frames emitted so far.
    public private(set) var emittedFrames = 0
    /// The last input frame of the previous block (an interpolation may need it with the next).
    private var previous: [Double]
    private var output: [Double]

    /// Output frames handed over at a time, at most.
    public static let blockFrames = 4096

    public init(ramp: TimeScaleRamp, channelCount: Int) {
        self.ramp = ramp
        self.channelCount = max(1, channelCount)
        previous = Array(repeating: 0, count: self.channelCount)
        output = []
        output.reserveCapacity(Self.blockFrames * self.channelCount)
    }

    /// All the output has been emitted.
    public var isComplete: Bool { emittedFrames >= ramp.outputCount }

    /// Takes the next interleaved input frames and hands `emit` the output frames they complete
    /// (interleaved, in blocks of at most `blockFrames`). Frames beyond the ramp's input count are
    /// counted and otherwise ignored.
    public mutating func process(_ input: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Double>) -> Void) {
        let frames = input.count / channelCount
        guard frames > 0 else { return }
        let first = receivedFrames
        let end = first + frames
        func sample(_ frame: Int, _ channel: Int) -> Double {
            frame < first ? previous[channel] : Double(input[(frame - first) * channelCount + channel])
        }
        while emittedFrames < ramp.outputCount {
            let point = ramp.controlPoint(emittedFrames)
            let index = Int(point)
            let fraction = point - Double(index)
            // A whole point reads one frame; otherwise the next one too (the seed pads past the end with 0).
            let needs = fraction == 0 || index + 1 >= ramp.inputCount ? index : index + 1
            guard needs < end else { break }
            for channel in 0 ..< channelCount {
                let a = sample(index, channel)
                if fraction == 0 {
                    output.append(a)
                } else {
                    let b = index + 1 < ramp.inputCount ? sample(index + 1, channel) : 0
                    output.append(a + fraction * (b - a))
                }
            }
            emittedFrames += 1
            if output.count >= Self.blockFrames * channelCount { flush(emit) }
        }
        flush(emit)
        for channel in 0 ..< channelCount { previous[channel] = sample(end - 1, channel) }
        receivedFrames = end
    }

    private mutating func flush(_ emit: (UnsafeBufferPointer<Double>) -> Void) {
        guard !output.isEmpty else { return }
        output.withUnsafeBufferPointer { emit($0) }
        output.removeAll(keepingCapacity: true)
    }
}
