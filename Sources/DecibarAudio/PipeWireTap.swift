import CPipeWire
import DecibarCore
import Dispatch
import Synchronization

/// Captures from PipeWire itself (libpipewire, no pipewire-pulse in between) as 256-frame buffers:
/// the default sink's monitor, following the default, a source or sink by name, or some apps'
/// playback streams, each from its first sample.
///
/// The tap is one capture node that it links itself, from what the registry says:
/// nothing waits for the session manager, and the node never moves by itself. When the server goes
/// away the tap waits and connects again with backoff; it never gives up.
// Unchecked: the graph, the links and the capture are touched only on PipeWire's loop thread (in
// its callbacks, which hold its lock) or on `supervisor` while no loop thread runs; the chunker and
// the hand-over only on PipeWire's data thread (and by `stop` once it is gone).
public final class PipeWireTap: @unchecked Sendable {
    /// The tap's 256-frame buffers, in order. Finishes when the tap stops.
    public let buffers: AudioBufferStream
    public let target: TapTarget
    /// Frames the tap asks the graph to deliver at a time (PipeWire's `node.latency`).
    public let quantum: Int
    /// The server to use (a socket path or name); nil means $PIPEWIRE_REMOTE, then pipewire-0.
    public let remote: String?
    /// Longer cycles after a second of digital silence (see `quantumAfter`).
    public let relaxesInSilence: Bool
    /// Raises PipeWire's data thread, which runs the capture once a graph cycle: a late cycle's
    /// samples are lost (the graph goes on without them). nil leaves it as it is.
    public let priority: (any ThreadPriority)?

    var handOver: AudioHandOver
    private let statusCell = TapStatusCell()
    private let stopRequested = Mutex(false)
    let sinkLatencyNanoseconds = Atomic<Int64>(0)
    /// Whether what is captured plays on a sink (a monitor, apps), whose device delay is latency
    /// still to come; a source's samples were heard when captured.
    let isHeardOnSink = Atomic(true)
    /// Connects, frees and retries, never on the loop thread (a client cannot free itself there).
    let supervisor = DispatchQueue(label: "decibar.pipewire")

    // Touched on the loop thread, or on `supervisor` while none runs.
    var client: OpaquePointer?
    var graph = AudioGraph()
    var synced = false
    var links: [AudioGraph.Link: UnsafeMutableRawPointer] = [:]
    var captureNode: UInt32?
    var capturePositions: [String] = []
    var source: AudioGraph.Source?
    /// While following apps: the streams heard now.
    var heardStreams: [AudioGraph.Node] = []
    /// Touched only on the data thread.
    var rechunker = Rechunker(channelCount: 2, sampleRate: 48000)
    var format: (rate: Int, channels: Int)?
    /// Touched only on the data thread: frames handed over since the reader was last woken, and
    /// the silence that relaxes the node's cycle.
    var framesSinceDelivery = 0
    var silentFrames = 0
    var isRelaxed = false
    var retryDelay = PipeWireTap.initialRetryDelay
    var isStopped = false
    /// Bumped at every new connection: a retry scheduled for an older one does nothing.
    var generation = 0

    static let initialRetryDelay = 0.1
    static let maximumRetryDelay = 0.8
    static let nodeName = "decibar-tap"
    static let relaxAfter = 1.0
    /// 100 ms at 48 kHz (the graph rounds it to its largest cycle, 2048 frames by default).
    static let relaxedQuantum = 4800

    /// - Parameters:
    ///   - bufferLimit: buffers kept for a reader that falls behind (newer ones are dropped).
    ///   - fragmentDuration: how much audio to ask for at a time; nil means one 256-frame buffer.
    public init(target: TapTarget = .defaultSinkMonitor, bufferLimit: Int = 1024, fragmentDuration: Double? = nil,
                relaxesInSilence: Bool = false, priority: (any ThreadPriority)? = nil, remote: String? = nil) throws(TapError) {
        if let failure = PipeWireLibrary.failure { throw TapError(failure) }
        self.relaxesInSilence = relaxesInSilence
        self.priority = priority
        self.target = target
        self.remote = remote
        let frames = fragmentDuration.map { Int(($0 * 48000 / Double(AudioBuffer.frameCapacity)).rounded()) * AudioBuffer.frameCapacity }
        quantum = max(AudioBuffer.frameCapacity, min(frames ?? AudioBuffer.frameCapacity, 8192))
        (buffers, handOver) = AudioBufferStream.make(bufferLimit: bufferLimit)
    }

    deinit {
        stop()
    }

    /// Current state, safe from any thread.
    public var status: TapStatus { statusCell.current }

    /// How long the graph says a sample takes from the source to the speaker (0 for a null sink).
    public var sinkLatency: Double { Double(sinkLatencyNanoseconds.load(ordering: .relaxed)) / 1e9 }

    /// Connects and starts listening; returns at once (progress shows in `status`).
    public func start() {
        supervisor.async { self.connect() }
    }

    /// Disconnects, stops the loop thread and finishes `buffers`. Safe to call twice.
    public func stop() {
        guard stopRequested.setForTheFirstTime() else { return }
        supervisor.sync {
            // Under the loop's lock: its callbacks read this.
            if let client { decibar_pw_client_lock(client) }
            isStopped = true
            if let client { decibar_pw_client_unlock(client) }
            disconnect()
        }
        handOver.finish()
    }

    /// Blocks until the status is no longer `last` or `deadline` (monotonic seconds) passes.
    public func waitForStatus(otherThan last: TapStatus, until deadline: Double) -> TapStatus {
        statusCell.wait(otherThan: last, until: deadline)
    }

    func setStatus(_ status: TapStatus) {
        statusCell.set(status)
    }
}

// The connection's life, on `supervisor`.
extension PipeWireTap {
    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func connect() {
        guard !isStopped, client == nil else { return }
        setStatus(.connecting)
        generation += 1
        graph.clear()
        synced = false
        var callbacks = Self.callbacks
        var message = [CChar](repeating: 0, count: 256)
        guard let made = decibar_pw_client_new("decibar", remote, &callbacks, userData, &message, Int32(message.count)) else {
            scheduleRetry(reason: String(cMessage: message), generation: generation)
            return
        }
        client = made
        let started = decibar_pw_client_start(made)
        if started != 0 {
            disconnect()
            scheduleRetry(reason: "cannot start PipeWire's client thread (error \(started))", generation: generation)
            return
        }
        decibar_pw_client_lock(made)
        _ = decibar_pw_client_sync(made)
        decibar_pw_client_unlock(made)
    }

    /// Frees the client (its loop thread stops first, so no callback runs after).
    func disconnect() {
        guard let client else { return }
        decibar_pw_client_free(client)
        self.client = nil
        links.removeAll()
        captureNode = nil
        source = nil
        format = nil
        graph.clear()
    }

    /// Waits, then connects again; each wait a little longer (up to 0.8 s).
    func scheduleRetry(reason: String, generation: Int) {
        guard !isStopped, generation == self.generation else { return }
        setStatus(.waitingForServer(reason: reason))
        let delay = retryDelay
        retryDelay = min(Self.maximumRetryDelay, retryDelay * 2)
        supervisor.asyncAfter(deadline: .now() + delay) {
            guard !self.isStopped, generation == self.generation else { return }
            self.disconnect()
            self.connect()
        }
    }
}
