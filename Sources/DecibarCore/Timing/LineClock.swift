/// When `decibar levels` prints a line: for every 1/rate seconds of audio, live or from a file.
///
/// A line closes on the first buffer that reaches its end. Ends lie on a grid of exactly 1/rate of
/// audio (kept as a fraction of frames), so the line rate does not drift; a buffer that jumps past
/// several ends (a high rate, a backlog) closes one line, not a burst of them, and the next line
/// ends at the next point of the grid.
public struct LineClock: Sendable {
    public let rate: Double
    /// Frames counted so far (as a Double: ends are fractions of frames).
    private var frames = 0.0
    private var lineEnd: Double?
    /// Frames since the last line closed.
    public private(set) var framesSinceLine = 0
    private var lastTime = 0.0

    /// - Parameter rate: lines per second of audio (more than 0).
    public init(rate: Double) {
        precondition(rate > 0, "a line rate must be positive")
        self.rate = rate
    }

    /// Counts `count` more frames at `sampleRate`; true when they close a line.
    public mutating func add(frames count: Int, sampleRate: Int) -> Bool {
        frames += Double(count)
        framesSinceLine += count
        let framesPerLine = Double(sampleRate) / rate
        let end = lineEnd ?? framesPerLine
        guard frames >= end else { return false }
        let skipped = ((frames - end) / framesPerLine).rounded(.down)
        lineEnd = end + (skipped + 1) * framesPerLine
        framesSinceLine = 0
        return true
    }

    /// Closes the line now, whatever `add` said (the end of a file, or of `--duration`).
    public mutating func closeLine() {
        framesSinceLine = 0
    }

    /// `time` for the line being written, never earlier than the line before: after a stall a
    /// server hands over its backlog at once, and times worked back from its arrival may go back.
    public mutating func lineTime(_ time: Double) -> Double {
        lastTime = Swift.max(lastTime, time)
        return lastTime
    }
}
