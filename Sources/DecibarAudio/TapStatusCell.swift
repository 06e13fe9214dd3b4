import DecibarCore
import Dispatch
import Synchronization

/// A tap's status: read from any thread, set from its client thread, and waited on by a headless
/// reader until it changes (a window reads it once a frame instead).
final class TapStatusCell: Sendable {
    private let value = Mutex<TapStatus>(.connecting)
    /// Signalled at every change, so a watcher sleeps until one instead of polling.
    private let changed = DispatchSemaphore(value: 0)

    var current: TapStatus { value.withLock { $0 } }

    func set(_ status: TapStatus) {
        let isChange = value.withLock { current in
            defer { current = status }
            return current != status
        }
        if isChange { changed.signal() }
    }

    /// Blocks until the status is no longer `last` or `deadline` (monotonic seconds) passes, and
    /// returns the status then. For one watcher at a time.
    func wait(otherThan last: TapStatus, until deadline: Double) -> TapStatus {
        while true {
            let status = current
            let remaining = deadline - HostClock.now()
            guard status == last, remaining > 0 else { return status }
            // Capped so an infinite deadline stays representable; a spurious wake just looks again.
            let nanoseconds = Int(min(remaining, 3600) * 1e9)
            _ = changed.wait(timeout: .now() + .nanoseconds(nanoseconds))
        }
    }
}
