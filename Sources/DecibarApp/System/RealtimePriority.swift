import DecibarAudio
import DecibarSystem
import Glibc
import Synchronization

/// Real-time scheduling for the threads that keep the player's sound going (its stage's, which
/// stretches and keeps the lead, and libpulse's, which writes to the server), and for PipeWire's
/// data thread under the native tap, where the system allows it: with a build running beside, a
/// thread at normal priority can wait tens of milliseconds for a core, longer than the audio
/// queued ahead of the speaker or a graph cycle.
///
/// In order: directly, where the process may (CAP_SYS_NICE, as root; or RLIMIT_RTPRIO, its soft
/// limit raised to the hard one, as `limits.conf` gives an audio group); else through RealtimeKit
/// (as PulseAudio and PipeWire get theirs on a desktop). Where nothing allows it the threads stay
/// as they are, quietly; `state` says which it was.
public final class RealtimePriority: ThreadPriority {
    /// Below the sound server's own threads (PulseAudio's default is 5), above everything normal.
    public static let priority: Int32 = 4

    /// The process's: what rtkit refused once, it refuses again.
    public static let shared = RealtimePriority()
    /// The PipeWire tap's data thread's: apart from `shared`, whose state the status gives as the player's.
    public static let tap = RealtimePriority()
    /// The outputs' sending thread's: a packet is due the moment its sound is heard, and at
    /// normal priority beside two busy loops it left 15 ms late.
    public static let outputs = RealtimePriority()

    public enum State: Sendable, Equatable {
        /// Not asked yet.
        case unknown
        /// Round-robin real-time at this priority; how it was got (`directly`, `rtkit`).
        case realtime(priority: Int32, through: String)
        /// Normal scheduling: why not real-time.
        case normal(String)
    }

    private let shared = Mutex<(state: State, rtkitFailed: Bool)>((.unknown, false))
    private let usesRealtimeKit: Bool

    /// - Parameter usesRealtimeKit: whether to ask rtkit when the process may not raise a thread itself.
    public init(usesRealtimeKit: Bool = true) {
        self.usesRealtimeKit = usesRealtimeKit
    }

    /// How the last thread asked for it is scheduled.
    public var state: State { shared.withLock { $0.state } }

    /// The status's words for `state`: `realtime (priority 4, directly)` or `normal (why)`.
    public var summary: String {
        switch state {
        case .unknown: "normal (no player yet)"
        case .realtime(let priority, let through): "realtime (priority \(priority), \(through))"
        case .normal(let why): "normal (\(why))"
        }
    }

    @discardableResult
    public func raiseCurrentThread() -> Bool {
        let wanted = Self.priority
        if raiseDirectly(wanted) {
            shared.withLock { $0.state = .realtime(priority: wanted, through: "directly") }
            return true
        }
        // rtkit said no once: it says no again (and each question is a round trip on the bus).
        let asked = shared.withLock { $0.rtkitFailed } ? nil : askRealtimeKit(wanted)
        return shared.withLock { shared in
            switch asked {
            case .success(let priority)?:
                shared.state = .realtime(priority: Int32(priority), through: "rtkit")
                return true
            case .failure(let reason)?:
                shared.rtkitFailed = true
                shared.state = .normal(reason.description)
            case nil:
                if case .realtime = shared.state { shared.state = .normal("not allowed for this thread") }
            }
            return false
        }
    }

    /// sched_setscheduler on the calling thread, after raising RLIMIT_RTPRIO's soft limit to the
    /// hard one if that would allow it.
    private func raiseDirectly(_ priority: Int32) -> Bool {
        if (try? Posix.setRealtimeScheduling(priority: priority)) != nil { return true }
        let limit = Posix.limit(.realtimePriority)
        guard limit.soft < rlim_t(priority), limit.hard >= rlim_t(priority) else { return false }
        guard (try? Posix.setLimit(.realtimePriority, soft: limit.hard, hard: limit.hard)) != nil else { return false }
        return (try? Posix.setRealtimeScheduling(priority: priority)) != nil
    }

    private func askRealtimeKit(_ priority: Int32) -> Result<Int, RealtimeKitError> {
        guard usesRealtimeKit, let thread = Posix.currentThreadID() else {
            return .failure(RealtimeKitError("not allowed to this process (no CAP_SYS_NICE, RLIMIT_RTPRIO below \(priority))"))
        }
        return RealtimeKit.makeRealtime(process: Int(getpid()), thread: thread) { limits in
            // rtkit grants nothing to a process whose real-time threads could run away: the CPU
            // time such a thread may take without blocking must be bounded, within its bound.
            let bound = rlim_t(max(1, limits.maximumRealtimeMicroseconds))
            let current = Posix.limit(.realtimeTime)
            if current.hard > bound || current.soft > bound {
                guard (try? Posix.setLimit(.realtimeTime, soft: bound, hard: bound)) != nil else { return nil }
            }
            let granted = min(Int(priority), limits.maximumPriority)
            return granted >= 1 ? granted : nil
        }
    }
}
