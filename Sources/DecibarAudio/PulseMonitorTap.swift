import CPulse
import DecibarCore
import Dispatch
import Synchronization

/// Captures a PulseAudio source (by default the monitor of the default sink) as 256-frame buffers.
///
/// Follows the user's output: a change of default sink moves the tap to the new sink's monitor,
/// and when the server goes away the tap waits and reconnects with backoff. It never gives up.
/// All PulseAudio work happens on the mainloop thread; buffers leave through a bounded stream that
/// holds at most `bufferLimit` of them, so a slow reader costs buffers (counted), never memory or latency.
/// The buffers of one delivery go over together (one wake-up of the reader per delivery).
// Unchecked: state beyond the atomics and mutexes is touched only on the mainloop thread or
// under its lock (libpulse's own), which the compiler cannot see.
public final class PulseMonitorTap: @unchecked Sendable {
    /// The tap's 256-frame buffers, in order. Finishes when the tap stops.
    public let buffers: AudioBufferStream
    public let target: TapTarget
    /// Seconds of audio the server sends at a time; nil means one 256-frame buffer (lowest latency).
    public let fragmentDuration: Double?
    public let relaxesInSilence: Bool
    public let measuresSinkLatency: Bool
    static let relaxAfter = 1.0
    static let relaxedFragmentDuration = 0.1
    /// The server to use (`unix:/path` or a host); nil means the usual one ($PULSE_SERVER, the session's).
    public let server: String?

    /// Touched only on the mainloop thread (and by `stop` once that thread is gone).
    var handOver: AudioHandOver
    let mainloop: PulseMainloop
    private let statusCell = TapStatusCell()
    let sinkLatencyMicroseconds = Atomic<UInt64>(0)
    private let stopRequested = Mutex(false)

    // Touched only on the mainloop thread or under its lock.
    var context: OpaquePointer?
    /// Held while the context connects: see FileModeMask.
    var connectTurn: FileModeMask.Turn?
    var stream: OpaquePointer?
    var streamDevice: TapDevice?
    var rechunker = Rechunker(channelCount: 2, sampleRate: 48000)
    /// libpulse says when data arrived, not when it was captured: the output's stamps come from this.
    var deliveryClock = DeliveryClock()
    var heardClock = HeardClock()
    /// The timing snapshot last taken into `heardClock`.
    var lastSnapshot: timeval?
    var lastTimingRequest = -Double.infinity
    var frameBytes = 8
    var retryTimer: OpaquePointer?
    var retryDelay = PulseMonitorTap.initialRetryDelay
    var isStopped = false
    /// Frames of digital silence delivered in a row, and whether fragments were enlarged for it.
    var silentFrames = 0
    var isRelaxed = false
    /// Listening to apps: the streams followed, and the mix of their captures.
    var apps = AppFollowing()
    /// For tests: how much later each question about a playback stream goes out, as if the round
    /// trip took that long. Set before `start`; read on the mainloop thread.
    var answerDelayForTesting = 0.0
    /// For tests: sees each piece read from an app's capture (nil samples: a hole), on the mainloop
    /// thread, before it is mixed; tells what the server sent from what the mix made of it.
    var captureObserverForTesting: (@Sendable (_ samples: UnsafeBufferPointer<Float>?, _ frames: Int) -> Void)?
    var mixer: StreamMixer?
    var clockTimer: OpaquePointer?
    /// Says what a user should know that is not a status (an app left out); called on the mainloop thread.
    let notice: (@Sendable (String) -> Void)?

    static let initialRetryDelay = 0.1
    static let maximumRetryDelay = 0.8

    /// - Parameters:
    ///   - bufferLimit: buffers kept for a reader that falls behind (newer ones are dropped). The default
    ///     holds over a second at 192 kHz: a server that stalls (or a device that renders in large
    ///     blocks) hands over its backlog at once, and that must not cost samples. Memory is only
    ///     used while a backlog waits.
    ///   - fragmentDuration: how much audio the server batches per delivery. The window wants 256
    ///     frames (nil) for latency; a headless reader that reports 30 times a second can take more
    ///     and wake far less often. Every sample is delivered either way.
    ///   - relaxesInSilence: after a second of digital silence, take 100 ms deliveries instead of
    ///     256 frames (a tenth of the wake-ups), and go back at the first sample that is not zero.
    ///     The first sound after silence then arrives up to 100 ms late; a window at rest wants this.
    ///   - measuresSinkLatency: have the server keep the sink's latency up to date (`sinkLatency`),
    ///     for a display that shows audio when it is heard.
    ///   - notice: gets a line for the log when a matching stream is left out (16 are heard).
    public init(target: TapTarget = .defaultSinkMonitor, bufferLimit: Int = 1024,
                fragmentDuration: Double? = nil, relaxesInSilence: Bool = false, measuresSinkLatency: Bool = false,
                server: String? = nil, notice: (@Sendable (String) -> Void)? = nil) throws(TapError) {
        guard let mainloop = PulseMainloop() else { throw TapError(pulseLibrary.failure ?? "cannot start the PulseAudio client thread") }
        self.mainloop = mainloop
        self.target = target
        self.fragmentDuration = fragmentDuration
        self.relaxesInSilence = relaxesInSilence
        self.measuresSinkLatency = measuresSinkLatency
        self.server = server
        self.notice = notice
        (buffers, handOver) = AudioBufferStream.make(bufferLimit: bufferLimit)
    }

    deinit {
        stop()
    }

    /// Current state, safe from any thread.
    public var status: TapStatus { statusCell.current }

    /// How long the sink whose monitor we record takes to play a sample, as the server measures
    /// it (0 for a source that is not a monitor). The monitor delivers audio this much before it
    /// is heard.
    public var sinkLatency: Double { Double(sinkLatencyMicroseconds.load(ordering: .relaxed)) / 1_000_000 }

    /// Connects and starts listening; returns at once (progress shows in `status`).
    public func start() {
        mainloop.locked { connect() }
    }

    /// Disconnects, stops the client thread and finishes `buffers`. Safe to call twice.
    public func stop() {
        // Checked outside the mainloop lock: after the first stop the mainloop no longer exists.
        guard stopRequested.setForTheFirstTime() else { return }
        mainloop.locked {
            isStopped = true
            if let timer = retryTimer {
                mainloop.cancelTimer(timer)
                retryTimer = nil
            }
            stopClock()
            // Frames one app delivered and another not yet are not mixed: the reader is leaving.
            mixer?.reset()
            closeStream()
            closeContext()
        }
        mainloop.shutDown()
        handOver.finish()
    }

    /// Blocks until the status is no longer `last` or `deadline` (monotonic seconds) passes, and
    /// returns the status then. For one watcher at a time (a headless reader's main thread); a
    /// window reads `status` once a frame instead.
    public func waitForStatus(otherThan last: TapStatus, until deadline: Double) -> TapStatus {
        statusCell.wait(otherThan: last, until: deadline)
    }

    func setStatus(_ status: TapStatus) {
        statusCell.set(status)
    }
}

/// A tap could not be set up at all (not: the server is missing, which the tap waits out).
public struct TapError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
