import DecibarAudio
import Foundation
import Synchronization

/// Looks for a sound server that went away, on a thread of its own: asking the server can take up
/// to its timeout, which the frame thread must never wait for. The player reads how many looks in
/// a row were answered; dropping the probe ends the looking.
final class SoundServerProbe {
    /// How often the server is looked for.
    static let interval = 0.5

    /// What the looking thread and the player share.
    private final class Looks: Sendable {
        let answered = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
    }

    private let looks = Looks()

    init() {
        let looks = self.looks
        let thread = Thread {
            while !looks.stopped.load(ordering: .acquiring) {
                // Connection refused answers at once; a server that hangs is given a moment.
                if (try? PulseDirectory.list(timeout: 0.2)) != nil {
                    looks.answered.add(1, ordering: .releasing)
                } else {
                    looks.answered.store(0, ordering: .releasing)
                }
                MonotonicClock.sleep(seconds: Self.interval)
            }
        }
        thread.name = "decibar-server-probe"
        thread.start()
    }

    deinit { looks.stopped.store(true, ordering: .releasing) }

    /// Looks in a row the server answered (0 after one it did not).
    var consecutiveAnswers: Int { looks.answered.load(ordering: .acquiring) }
}
