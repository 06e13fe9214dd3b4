/// What measures EBU R128 loudness from buffers (libebur128's `LoudnessMeter` in the audio module).
/// A new sample rate or channel count starts a new measurement.
public protocol LoudnessAnalyzer: AnyObject {
    /// Adds a buffer's frames. Allocates nothing once the format is settled.
    func add(_ buffer: AudioBuffer)
    /// The loudness of everything added since the start or the last `reset`.
    var reading: LoudnessReading { get }
    /// Forgets everything measured.
    func reset()
}
