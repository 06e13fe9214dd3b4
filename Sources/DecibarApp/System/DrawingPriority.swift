import DecibarSystem
import Glibc
import Synchronization

/// A larger share of the CPU for the thread that draws a live window, where the system allows it.
/// On two cores with other work beside (a build; the page's readers), a window thread at normal
/// priority waits for a core often enough to miss its display slot: with 16 page clients and two
/// busy loops, 16 % of frames landed within 2 ms of their slot at nice 0.
///
/// Raised before the window's GL context is made, so the software rasterizer's threads (llvmpipe
/// starts them from this thread) share it. A nice value, not real-time: a driver that spins must
/// not take a core from the sound server. Only from the default nice 0: a window started under
/// `nice` stays where it was put. In order: directly (CAP_SYS_NICE, or RLIMIT_NICE's soft limit
/// raised to the hard one), else RealtimeKit; else quietly as it was.
public enum DrawingPriority {
    /// Above normal work (two busy loops beside the page test: 83 % of frames on time at -10,
    /// 54-73 % at -5, 16 % at 0), below the sound server's main thread (PulseAudio's and
    /// pipewire-pulse's run at -11) and its real-time threads; rtkit's floor is -15.
    public static let niceness: Int32 = -10

    private static let state = Mutex<String?>(nil)

    /// The status's words for the last window's thread: `nice -10 (directly)`, `nice 0 (why)`;
    /// nil before a window opened.
    public static var summary: String? { state.withLock { $0 } }

    /// Raises the calling thread (and the threads it starts from now on).
    public static func raiseCurrentThread() {
        // Asked once per process: a later window (the daemon's reopened layer) is drawn by the same
        // thread, and a refusal by rtkit would only cost another bus round trip to repeat.
        guard self.summary == nil else { return }
        let current = Posix.currentNiceness()
        let summary: String
        if current != 0 {
            summary = "nice \(current) (as started)"
        } else if raiseDirectly() {
            summary = "nice \(niceness) (directly)"
        } else if let thread = Posix.currentThreadID() {
            switch RealtimeKit.makeHighPriority(process: Int(getpid()), thread: thread, niceness: Int(niceness)) {
            case .success(let granted): summary = "nice \(granted) (rtkit)"
            case .failure(let reason): summary = "nice 0 (\(reason.description))"
            }
        } else {
            summary = "nice 0 (no thread id)"
        }
        state.withLock { $0 = summary }
    }

    private static func raiseDirectly() -> Bool {
        if (try? Posix.setNiceness(niceness)) != nil { return true }
        // RLIMIT_NICE allows nice values down to 20 minus its value.
        let needed = rlim_t(20 - niceness), limit = Posix.limit(.niceness)
        guard limit.soft < needed, limit.hard >= needed else { return false }
        guard (try? Posix.setLimit(.niceness, soft: limit.hard, hard: limit.hard)) != nil else { return false }
        return (try? Posix.setNiceness(niceness)) != nil
    }
}
