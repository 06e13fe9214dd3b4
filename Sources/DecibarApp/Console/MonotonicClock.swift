import DecibarAudio
import Foundation

/// Seconds on CLOCK_MONOTONIC (the taps' clock, which outside tools can read too), and sleeping on it.
enum MonotonicClock {
    static func now() -> Double { HostClock.now() }

    static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - floor(seconds)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
    }
}
