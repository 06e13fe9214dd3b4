import Dispatch
import Foundation
import Glibc
import Synchronization

/// The process's file-creation mask (umask) is one value shared by every thread, and libpulse
/// changes it on its own thread while a context connects: it makes its cookie's folder under 077
/// and then puts the mask it found back. Two such changes at once can leave 077 for good, and every
/// file made after is private (a config another user must read, a video only its maker can open).
/// So contexts connect one at a time, and every other change of the mask waits for the same turn.
public enum FileModeMask {
    /// Taken by the connecting thread and given back from libpulse's once the context is ready or
    /// failed: a semaphore, as a lock must be released by its owner.
    private static let turns = DispatchSemaphore(value: 1)

    /// How long a connect waits for another's turn to end; a server that never answers holds its
    /// turn no longer than this.
    static let turnTimeout = 2.0

    /// One context's turn; `end()` may be called from any thread, and more than once.
    final class Turn: Sendable {
        private let isHeld: Atomic<Bool>

        fileprivate init(held: Bool) { isHeld = Atomic(held) }

        func end() {
            if isHeld.exchange(false, ordering: .acquiringAndReleasing) { FileModeMask.turns.signal() }
        }

        deinit { end() }
    }

    /// Waits (at most `turnTimeout`) for no other context to be connecting.
    static func takeTurn() -> Turn {
        Turn(held: turns.wait(timeout: .now() + turnTimeout) == .success)
    }

    /// Runs `body` with the mask set to `mask`, then puts the previous one back.
    public static func with<Result, Failure: Error>(_ mask: mode_t, _ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        let turn = takeTurn()
        defer { turn.end() }
        let previous = umask(mask)
        defer { umask(previous) }
        return try body()
    }

    /// The mask now, read from /proc without changing it (nil where /proc is not mounted).
    public static var current: mode_t? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
              let value = line.split(separator: "\t").last.flatMap({ mode_t($0.trimmingCharacters(in: .whitespaces), radix: 8) })
        else { return nil }
        return value
    }
}
