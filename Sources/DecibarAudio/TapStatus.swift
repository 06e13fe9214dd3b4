import DecibarCore

/// What a tap is listening to, in user terms.
public struct TapDevice: Sendable, Equatable {
    /// The server's name for the source, e.g. `alsa_output.pci-0000_00_1f.3.analog-stereo.monitor`.
    public var name: String
    /// The human name, e.g. `Monitor of Built-in Audio Analog Stereo`.
    public var description: String
    public var sampleRate: Int
    public var channelCount: Int
    /// The device's own channel map (PulseAudio positions), used to open a stream on it.
    var channelPositions: [Int32] = []
    /// For a sink's monitor, the sink's name.
    var sinkName: String?

    public init(name: String, description: String, sampleRate: Int, channelCount: Int) {
        self.name = name
        self.description = description
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}

/// Where a tap stands; the window shows it and `levels` reports changes on stderr.
public enum TapStatus: Sendable, Equatable {
    /// Talking to the sound server, or choosing the device.
    case connecting
    /// Samples are flowing from `device`.
    case capturing(TapDevice)
    /// No sound server answers; the tap retries with backoff.
    case waitingForServer(reason: String)
    /// The server runs but has nothing to tap (no output device, or the named source is missing).
    case waitingForDevice(reason: String)
    /// Listening to apps, none of which plays: the level is silence until one does. Not a fault.
    case waitingForApp(String)

    public var summary: String {
        switch self {
        case .connecting: "connecting to the audio server"
        case .capturing(let device): device.description
        case .waitingForServer: "waiting for audio server"
        case .waitingForDevice(let reason): reason
        case .waitingForApp(let text): text
        }
    }
}

/// Which source a live tap listens to.
public enum TapTarget: Sendable, Equatable {
    /// The monitor of the default sink: what the computer is playing. Follows default-sink changes.
    case defaultSinkMonitor
    /// A source by name; a sink's name means that sink's monitor.
    case named(String)
    /// The playback streams of some apps, each through the server's monitor of that one stream,
    /// summed. `output` (a sink, or its monitor) keeps to the streams playing there; without it,
    /// apps are followed to every output, and exclusions alone mean the default output.
    case apps(AppSelection, output: String?)

    /// The target for `--source` and the app options: apps when any is named, else the source, else the default.
    public init(source: String?, apps: AppSelection) {
        if !apps.isEmpty {
            self = .apps(apps, output: source)
        } else {
            self = source.map(TapTarget.named) ?? .defaultSinkMonitor
        }
    }
}
