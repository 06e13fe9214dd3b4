@testable import DecibarAudio
import Dispatch
import Synchronization
import Testing

/// The process's umask is shared by every thread, and libpulse sets it to 077 and back on its own
/// thread as a context connects; contexts connecting at once could leave it at 077, and every file
/// made after (a config a compositor run as another user must read) was private.
@Suite("The file-creation mask", .enabled(if: TestRig.canRun(needing: .display), "needs the test environment's sound server (make test has one)"))
struct FileModeMaskTests {
    @Test("900 device lists from 6 threads at once, each connecting to the sound server, leave the process's umask as it was")
    func keptThroughConnects() throws {
        let before = try #require(FileModeMask.current)
        let failures = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            for _ in 0 ..< 150 where (try? PulseDirectory.list(timeout: 5)) == nil {
                failures.add(1, ordering: .relaxed)
            }
        }
        #expect(failures.load(ordering: .relaxed) == 0)
        let after = try #require(FileModeMask.current)
        #expect(after == before, "umask \(String(after, radix: 8)), was \(String(before, radix: 8))")
    }
}
