// `make tsan`'s check of its own instrument: two threads contend for a Synchronization.Mutex
// (so its slow, kernel-side path runs). Guarded, nothing may be reported; with a plain counter
// planted next to the mutex and changed by both threads outside it, the race must be reported.
// Usage: TSanSelfCheck guarded|planted
import Foundation
import Synchronization

final class Shared: Sendable {
    let guarded = Mutex(0)
    // The planted race: both threads change it with no lock. Only this program does this.
    nonisolated(unsafe) var planted = 0
}

let plants = CommandLine.arguments.dropFirst().first == "planted"
let shared = Shared()
let done = DispatchGroup()
for _ in 0 ..< 2 {
    done.enter()
    Thread {
        for _ in 0 ..< 100_000 {
            shared.guarded.withLock { $0 += 1 }
            if plants { shared.planted += 1 }
        }
        done.leave()
    }.start()
}
done.wait()
print("guarded count \(shared.guarded.withLock { $0 })")
