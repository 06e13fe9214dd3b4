import Foundation
import Synchronization

/// Runs a task's jobs on a thread of its own. A test that consumes an audio stream with
/// `for await` then never waits for the concurrency pool, whose few threads other tests may hold
/// for seconds while they wait on processes (which starved such readers under ThreadSanitizer).
final class DedicatedThreadExecutor: TaskExecutor {
    private let jobs = Mutex<[UnownedJob]>([])
    private let ready = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in
            while true {
                ready.wait()
                guard let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { continue }
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        jobs.withLock { $0.append(unowned) }
        ready.signal()
    }
}
