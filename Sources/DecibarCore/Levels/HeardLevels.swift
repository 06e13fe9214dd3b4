import Synchronization

/// Levels of audio we play, released only when it is heard.
///
/// A player hands over what it writes ahead of time, each buffer stamped with when it will reach
/// the speaker; display frames take the buffers that are due, so bars match the sound (also in
/// screen recordings). At most `capacity` buffers wait; a seek drops them all.
public final class HeardLevels: Sendable {
    private struct State {
        var waiting: [AudioBuffer] = []
        var processor = LevelProcessor(channelCount: 2)
    }

    private let state = Mutex(State())
    public let capacity: Int

    public init(capacity: Int = 1024) {
        self.capacity = capacity
    }

    public func add(_ buffer: AudioBuffer) {
        state.withLock { state in
            if state.waiting.count >= capacity { state.waiting.removeFirst(state.waiting.count - capacity + 1) }
            state.waiting.append(buffer)
        }
    }

    /// The reading of every buffer heard by `now` since the previous call.
    public func takeReading(heardBy now: Double) -> LevelReading {
        state.withLock { state in
            let due = state.waiting.prefix { $0.captureTime <= now }.count
            for buffer in state.waiting.prefix(due) { state.processor.process(buffer) }
            state.waiting.removeFirst(due)
            return state.processor.takeReading()
        }
    }

    /// Forgets everything not heard yet (after a seek, it never will be).
    public func discardWaiting() {
        state.withLock { $0.waiting.removeAll(keepingCapacity: true) }
    }
}
