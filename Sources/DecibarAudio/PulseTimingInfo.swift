import CPulse

/// A stream's timing snapshot from the server, as taps and the player read it.
extension pa_timing_info {
    /// How often a stream asks for a new snapshot: libpulse's own refresh slows to one every
    /// second or so, and between them its latency is an interpolation.
    static let refreshInterval = 0.1

    /// When the snapshot was current, on the host clock. Its time is on the wall clock (the
    /// server's, which is ours when the clocks are synchronized): moved over by how long ago it was.
    var hostTime: Double {
        var wall = timeval()
        pulseFunctions.pa_gettimeofday!(&wall)
        let age = Double(wall.tv_sec - timestamp.tv_sec) + Double(wall.tv_usec - timestamp.tv_usec) / 1e6
        return HostClock.now() - age
    }
}
