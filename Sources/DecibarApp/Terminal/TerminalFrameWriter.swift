import Foundation
import Synchronization

/// Writes frames to the terminal on a thread of its own, one at a time: a frame offered while the
/// previous one is still being written is refused (the caller draws it later), so a terminal that
/// stops reading (a stalled SSH link) holds back only this thread, never the loop or the audio.
final class TerminalFrameWriter: @unchecked Sendable {
    // @unchecked: `pending` is swapped only under `state`'s lock while the writer is idle, and written only while it is busy.
    private let output: Int32
    private let state = Mutex(State())
    private let ready = DispatchSemaphore(value: 0)
    private var thread: Thread?
    private var pending: [UInt8] = []

    private struct State {
        var busy = false
        var stopping = false
        var failed = false
        var written = 0
    }

    init(output: Int32) {
        self.output = output
        let thread = Thread { [unowned self] in self.run() }
        thread.name = "terminal writer"
        self.thread = thread
        thread.start()
    }

    /// Bytes written so far (for the benchmark's bytes a second).
    var bytesWritten: Int { state.withLock { $0.written } }
    /// The terminal refused a write (it went away).
    var hasFailed: Bool { state.withLock { $0.failed } }
    /// Whether a frame offered now would be taken.
    var isIdle: Bool { state.withLock { !$0.busy } }

    /// Takes `frame` to write, handing back the last one's emptied buffer (its capacity kept); false,
    /// `frame` left as it was, while the previous one is still being written.
    func offer(_ frame: inout [UInt8]) -> Bool {
        let taken = state.withLock { state -> Bool in
            guard !state.busy, !state.failed else { return false }
            state.busy = true
            swap(&pending, &frame)
            return true
        }
        if taken { ready.signal() }
        return taken
    }

    /// Waits for the frame being written (up to `timeout`), then ends the thread.
    func stop(timeout: Double = 0.5) {
        let deadline = Date().addingTimeInterval(timeout)
        while !isIdle && Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        state.withLock { $0.stopping = true }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            if state.withLock({ $0.stopping }) { return }
            var failed = false
            pending.withUnsafeBytes { bytes in
                do { try Posix.writeAll(output, bytes) } catch { failed = true }
            }
            let count = pending.count
            pending.removeAll(keepingCapacity: true)
            state.withLock { state in
                state.written += count
                state.busy = false
                state.failed = state.failed || failed
            }
        }
    }
}
