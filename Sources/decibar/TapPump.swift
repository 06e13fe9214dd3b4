import DecibarAudio
import DecibarCore

/// Drains a tap's buffers into a level mailbox on the concurrency pool, off the frame loop.
struct TapPump {
    let task: Task<Void, Never>

    init(tap: PulseMonitorTap, mailbox: LevelMailbox) {
        let buffers = tap.buffers
        task = Task.detached(priority: .high) {
            for await buffer in buffers {
                mailbox.process(buffer)
            }
        }
    }

    func cancel() { task.cancel() }
}
