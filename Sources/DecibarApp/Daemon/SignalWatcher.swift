import Foundation
import Glibc

/// Turns SIGTERM, SIGINT and SIGHUP into inbox items: the signals are blocked in every thread
/// (call `blockSignals` before any thread starts) and one thread waits for them with sigwait, so
/// they arrive as ordinary work for the main thread and never interrupt it.
enum SignalWatcher {
    static let watched = [SIGTERM, SIGINT, SIGHUP]

    static func blockSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in watched { sigaddset(&set, signal) }
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    static func start(posting inbox: DaemonInbox) {
        let thread = Thread {
            var set = sigset_t()
            sigemptyset(&set)
            for signal in watched { sigaddset(&set, signal) }
            while true {
                var received: Int32 = 0
                guard sigwait(&set, &received) == 0 else { continue }
                switch received {
                case SIGHUP: inbox.post(.reloadConfig(reason: "SIGHUP"))
                case SIGINT: inbox.post(.stop(signal: "SIGINT"))
                default: inbox.post(.stop(signal: "SIGTERM"))
                }
            }
        }
        thread.name = "decibar signals"
        thread.start()
    }
}
