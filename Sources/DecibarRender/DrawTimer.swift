import CGL

/// Times a stretch of drawing, for a picture whose scale follows its cost. On a GPU by the
/// driver's own timer (GL_TIME_ELAPSED queries, core in OpenGL 3.3), read frames later without
/// waiting. On a software renderer by the clock around the stretch, finished on both sides: Mesa's
/// llvmpipe answers the queries but rasterizes when the frame is flushed, so they read a tenth of
/// a millisecond for a shader that takes forty.
public final class DrawTimer {
    private let clock: () -> Double
    private let usesQueries: Bool
    /// Timings in flight at most: older ones are dropped rather than waited for.
    private static let depth = 4
    private var queries = [GLuint](repeating: 0, count: DrawTimer.depth)
    /// Ring positions: the next query to begin, and the oldest not yet read.
    private var next = 0
    private var oldest = 0
    private var inFlight = 0
    private var running = false
    private var startedAt = 0.0
    private var measured: Double?

    /// `clock`: seconds, monotonic (used on a software renderer).
    public init(softwareRenderer: Bool, clock: @escaping () -> Double) {
        self.clock = clock
        usesQueries = !softwareRenderer
        if usesQueries { glFunctions.glGenQueries!(GLsizei(Self.depth), &queries) }
    }

    deinit {
        if usesQueries { glFunctions.glDeleteQueries!(GLsizei(Self.depth), &queries) }
    }

    /// Starts timing the drawing that follows (nothing when one is running, or all are in flight).
    public func begin() {
        guard !running else { return }
        if usesQueries {
            guard inFlight < Self.depth else { return }
            glFunctions.glBeginQuery!(GLenum(GL_TIME_ELAPSED), queries[next])
        } else {
            glFunctions.glFinish!()
            startedAt = clock()
        }
        running = true
    }

    /// Ends the timing `begin` started.
    public func end() {
        guard running else { return }
        running = false
        if usesQueries {
            glFunctions.glEndQuery!(GLenum(GL_TIME_ELAPSED))
            next = (next + 1) % Self.depth
            inFlight += 1
        } else {
            glFunctions.glFinish!()
            measured = clock() - startedAt
        }
    }

    /// Seconds of the oldest finished timing not yet taken, or nil (never waits).
    public func takeResult() -> Double? {
        guard usesQueries else {
            defer { measured = nil }
            return measured
        }
        guard inFlight > 0 else { return nil }
        var available: GLint = 0
        glFunctions.glGetQueryObjectiv!(queries[oldest], GLenum(GL_QUERY_RESULT_AVAILABLE), &available)
        guard available != 0 else { return nil }
        var nanoseconds: GLuint64 = 0
        glFunctions.glGetQueryObjectui64v!(queries[oldest], GLenum(GL_QUERY_RESULT), &nanoseconds)
        oldest = (oldest + 1) % Self.depth
        inFlight -= 1
        return Double(nanoseconds) / 1e9
    }
}
