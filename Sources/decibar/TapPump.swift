import DecibarAudio
import DecibarCore

/// Drains a tap's buffers into an audio feed on the concurrency pool, off the frame loop.
struct TapPump {
    let task: Task<Void, Never>

    init(tap: PulseMonitorTap, feed: AudioFeed) {
        let buffers = tap.buffers
        task = Task.detached(priority: .high) {
            for await buffer in buffers {
                feed.add(buffer)
            }
        }
    }

    func cancel() { task.cancel() }
}
