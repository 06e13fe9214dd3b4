import Glibc

/// The machine's monotonic clock (CLOCK_MONOTONIC) in seconds: the one time base shared by taps,
/// the frame loop and outside tools.
public enum HostClock {
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
