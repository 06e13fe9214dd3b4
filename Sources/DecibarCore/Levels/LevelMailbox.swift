import Synchronization

/// Where the audio side leaves levels for the display side: every buffer is processed into it,
/// and each display frame (or output line) takes the reading covering everything since the last.
///
/// The lock is held only for one buffer's arithmetic or one reading, never across I/O.
public final class LevelMailbox: Sendable {
    private let processor: Mutex<LevelProcessor>

    public init(channelCount: Int = 2) {
        processor = Mutex(LevelProcessor(channelCount: channelCount))
    }

    /// Adds one buffer; called by the task that drains a tap.
    public func process(_ buffer: AudioBuffer) {
        processor.withLock { $0.process(buffer) }
    }

    /// The reading for every buffer since the previous call (frameCount 0 when none arrived).
    public func takeReading() -> LevelReading {
        processor.withLock { $0.takeReading() }
    }
}
