import DecibarCore

/// A live capture as 256-frame buffers, whichever library reaches the server.
public protocol LiveTap: AnyObject, Sendable {
    /// The buffers, in order; finishes when the tap stops.
    var buffers: AudioBufferStream { get }
    var target: TapTarget { get }
    /// Current state, safe from any thread.
    var status: TapStatus { get }
    /// How long the tapped sink takes to play a sample (0 for a source that is not a monitor).
    var sinkLatency: Double { get }
    /// The library in use, as a user names it: `pulse` or `pipewire`.
    var backend: AudioBackendChoice { get }
    /// Connects and starts listening; returns at once (progress shows in `status`).
    func start()
    /// Disconnects and finishes `buffers`. Safe to call twice.
    func stop()
    /// Blocks until the status is no longer `last` or `deadline` (monotonic seconds) passes.
    func waitForStatus(otherThan last: TapStatus, until deadline: Double) -> TapStatus
}

extension LiveTap {
    /// Buffers thrown away because the reader was too slow.
    public var droppedBufferCount: Int { buffers.pool.droppedCount }

    /// Buffers handed to the stream so far.
    public var deliveredBufferCount: Int { buffers.pool.deliveredCount }
}

extension PulseMonitorTap: LiveTap {
    public var backend: AudioBackendChoice { .pulse }
}

extension PipeWireTap: LiveTap {
    public var backend: AudioBackendChoice { .pipewire }
}

/// Opens the live tap the settings ask for.
public enum LiveTaps {
    /// - Parameters:
    ///   - backend: `auto` takes PipeWire's own protocol when a PipeWire server with audio answers,
    ///     else libpulse.
    ///   - priority: raises PipeWire's data thread (libpulse's tap reads whole fragments from the
    ///     server's own buffer, and has no thread that must keep up with a graph).
    ///   - The rest: as for `PulseMonitorTap` (PipeWire's tap takes what it can use).
    public static func open(backend: AudioBackendChoice, target: TapTarget, bufferLimit: Int = 1024, fragmentDuration: Double? = nil,
                            relaxesInSilence: Bool = false, measuresSinkLatency: Bool = false, priority: (any ThreadPriority)? = nil,
                            notice: (@Sendable (String) -> Void)? = nil) throws(TapError) -> any LiveTap {
        if Self.resolve(backend) == .pipewire {
            return try PipeWireTap(target: target, bufferLimit: bufferLimit, fragmentDuration: fragmentDuration,
                                   relaxesInSilence: relaxesInSilence, priority: priority)
        }
        return try PulseMonitorTap(target: target, bufferLimit: bufferLimit, fragmentDuration: fragmentDuration,
                                   relaxesInSilence: relaxesInSilence, measuresSinkLatency: measuresSinkLatency, notice: notice)
    }

    /// The library `backend` means here: `auto` is `pipewire` when a PipeWire server with audio
    /// answers on its own socket, else `pulse`.
    public static func resolve(_ backend: AudioBackendChoice) -> AudioBackendChoice {
        switch backend {
        case .pulse, .pipewire: backend
        case .auto: PipeWireTap.serverAnswers() ? .pipewire : .pulse
        }
    }

    /// How a user names what `backend` talks to, e.g. `PipeWire's own protocol (libpipewire 0.3.65)`.
    public static func describe(_ backend: AudioBackendChoice) -> String {
        switch backend {
        case .pipewire: "PipeWire's own protocol (libpipewire \(PipeWireLibrary.version))"
        case .pulse, .auto: "libpulse"
        }
    }
}
