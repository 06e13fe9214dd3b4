import DecibarCore
import DecibarRender
import Dispatch
import Synchronization

/// What reaches the daemon's main thread from elsewhere (the socket's event loop, the signal and
/// config watchers): queued in order, and the main thread woken, whether it sleeps on the inbox
/// (no window) or in the window's event wait.
final class DaemonInbox: Sendable {
    enum Item: Sendable {
        case request(ControlRequest, ControlClientHandle)
        case clientLeft(ControlClientHandle)
        /// A reply already made (to a line that was not a request).
        case reply([UInt8], ControlClientHandle)
        /// SIGTERM or SIGINT: stop.
        case stop(signal: String)
        /// SIGHUP, or the config file changed.
        case reloadConfig(reason: String)
        /// From the session bus (MPRIS).
        case media(MediaRequest)
    }

    private let items = Mutex<[Item]>([])
    private let signal = DispatchSemaphore(value: 0)

    func post(_ item: Item) {
        items.withLock { $0.append(item) }
        signal.signal()
        Window.wakeEventLoop()
    }

    /// Everything posted so far, oldest first. The frame loop asks every frame: an empty inbox
    /// costs no allocation.
    func take() -> [Item] {
        items.withLock { items in
            guard !items.isEmpty else { return [] }
            defer { items = [] }
            return items
        }
    }

    var isEmpty: Bool { items.withLock { $0.isEmpty } }

    /// Sleeps until something is posted, or `timeout` seconds (nil: for as long as it takes).
    func wait(timeout: Double?) {
        guard isEmpty else { return }
        if let timeout {
            _ = signal.wait(timeout: .now() + timeout)
        } else {
            signal.wait()
        }
    }
}
