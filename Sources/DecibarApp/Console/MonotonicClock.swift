import DecibarAudio
import Foundation

/// Seconds on CLOCK_MONOTONIC (the taps' clock, which outside tools can read too), and sleeping on it.
enum MonotonicClock {
    static func now() -> Double { HostClock.now() }

    static func sleep(seconds: Double) { Posix.sleep(seconds: seconds) }
}
