import DecibarCore

/// What `decibar scale` passes samples through: interleaved float frames in, interleaved frames
/// out as doubles (so the seed's half-to-even rounding sees the exact values).
protocol ScalingStage {
    var receivedFrames: Int { get }
    var emittedFrames: Int { get }
    mutating func process(_ input: UnsafeBufferPointer<Float>, emit: (UnsafeBufferPointer<Double>) -> Void)
    /// After the last input: whatever is still held.
    mutating func finish(emit: (UnsafeBufferPointer<Double>) -> Void)
}

extension LinearTimeScaler: ScalingStage {
    /// The last control point comes with the last input frame: nothing is held.
    mutating func finish(emit: (UnsafeBufferPointer<Double>) -> Void) {}
}
