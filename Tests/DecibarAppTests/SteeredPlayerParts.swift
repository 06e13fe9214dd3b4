import DecibarAudio
import DecibarCore
@testable import DecibarApp

/// Player parts a test steers: files open (or not) by name, outputs play, finish and lose their
/// server when told, and connections and probes answer when told. What the session asked of
/// them is kept for the test to read.
final class SteeredPlayerParts: PlayerParts {
    /// Paths that cannot be opened.
    var unplayable: Set<String> = []
    /// Each file's length, in seconds (10 unless said).
    var lengths: [String: Double] = [:]
    /// No output can be made (the sound server is away).
    var serverDown = false
    /// Outputs made from now on hand the pump what the test delivers, instead of ending at once.
    var deliversAudio = false
    private(set) var outputs: [SteeredOutput] = []
    private(set) var connections: [SteeredConnection] = []
    private(set) var probes: [SteeredProbe] = []

    var output: SteeredOutput? { outputs.last }

    func openFile(_ path: String) throws(AudioFileError) -> any TrackSource {
        if unplayable.contains(path) { throw AudioFileError(path: path, reason: "not audio") }
        return SteeredSource(path: path, seconds: lengths[path] ?? 10)
    }

    func connect(to url: String, settings: StreamSettings, reusing: (any TrackDownload)?) -> any TrackConnection {
        let connection = SteeredConnection(download: (reusing as? SteeredDownload) ?? SteeredDownload(url: url))
        connections.append(connection)
        return connection
    }

    func download(_ url: String, settings: StreamSettings) -> any TrackDownload { SteeredDownload(url: url) }

    func output(playing source: any TrackSource, volume: Double, rateAndPitch: RateAndPitch) throws -> any TrackOutput {
        if serverDown { throw ServerAway() }
        let output = SteeredOutput(sampleRate: source.sampleRate, deliversAudio: deliversAudio)
        outputs.append(output)
        return output
    }

    func overview(of path: String, source: any TrackSource, following download: (any TrackDownload)?) -> any TrackOverview {
        SteeredOverview()
    }

    func picture(of path: String, following download: (any TrackDownload)?) -> any TrackPicture { SteeredPicture(path: path) }

    func serverProbe() -> any ServerProbe {
        let probe = SteeredProbe()
        probes.append(probe)
        return probe
    }
}

final class SteeredOutput: TrackOutput {
    /// Ended at once (tests that follow the transport, not the audio), or what `deliver` hands over.
    let buffers: AudioBufferStream
    private var handOver: AudioHandOver
    let sampleRate: Int
    var heardFrame: Int64 = 0
    var latency = 0.05
    /// A new stream starts corked.
    private(set) var isPaused = true
    var isFinished = false
    var isServerLost = false
    var underrunCount = 0
    var dropoutCount = 0
    var lastSeekWrittenAt: Double?
    private(set) var isStopped = false
    private(set) var seeks: [Int64] = []

    init(sampleRate: Int, deliversAudio: Bool = false) {
        self.sampleRate = sampleRate
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: deliversAudio ? 4096 : 1)
        if !deliversAudio { handOver.finish() }
        buffers = stream
        self.handOver = handOver
    }

    /// Hands `list` to the session's pump, as the output hands over what it writes.
    func deliver(_ list: [AudioBuffer]) {
        for buffer in list { handOver.add(buffer) }
        handOver.send()
    }

    func play() { isPaused = false }
    func pause() { isPaused = true }
    func stop() { isStopped = true }
    func seek(toFrame frame: Int64) {
        seeks.append(frame)
        heardFrame = frame
    }
    func setVolume(_ percent: Double) {}
    func setTimeAndPitch(rate: Double, pitchScale: Double) -> Bool { true }

    /// Where it is heard, in seconds.
    func hear(at seconds: Double) { heardFrame = Int64(seconds * Double(sampleRate)) }
}

// Unchecked: a test's parts are made, steered and read on the test's own thread only.
final class SteeredSource: TrackSource, @unchecked Sendable {
    let path: String
    let sampleRate = 48000
    let channelCount = 2
    let speakerPositions: [SpeakerPosition] = [.frontLeft, .frontRight]
    let estimatedFrameCount: Int64?
    let tags = TrackTags()
    var failure: AudioFileError?
    var bufferedSeconds = 0.0
    var isDecodedToEnd = false
    let capacitySeconds = 10.0
    var whenAudioArrives: (@Sendable () -> Void)?

    init(path: String, seconds: Double) {
        self.path = path
        estimatedFrameCount = Int64(seconds * 48000)
    }

    /// The A-B loop the session gave it.
    private(set) var loop: ABLoop?

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> PlaybackRender { .waiting }
    func seek(toFrame frame: Int64) {}
    func setLoop(_ loop: ABLoop?) { self.loop = loop }
}

final class SteeredDownload: TrackDownload {
    let url: String
    var snapshot = StreamSnapshot(total: nil, held: ByteRanges(), isEndless: false, isComplete: false, requestCount: 1)
    var isPlayerWaiting = false
    private(set) var isCancelled = false

    init(url: String) { self.url = url }

    func cancel() { isCancelled = true }
}

final class SteeredConnection: TrackConnection {
    let steered: SteeredDownload
    var outcome: Result<any TrackSource, AudioFileError>?
    var download: any TrackDownload { steered }

    init(download: SteeredDownload) { steered = download }

    func cancel() { steered.cancel() }

    /// The stream opens; returns its source to steer.
    @discardableResult
    func open() -> SteeredSource {
        let source = SteeredSource(path: steered.url, seconds: 60)
        outcome = .success(source)
        return source
    }
}

final class SteeredOverview: TrackOverview {
    var snapshot = PeaksJob.Snapshot()
    func cancel() {}
}

final class SteeredPicture: TrackPicture {
    let path: String
    var info: VideoPlayback.Info? { nil }
    var counts: (shown: Int, dropped: Int) { (0, 0) }
    private(set) var seeks: [Double] = []

    init(path: String) { self.path = path }

    func setDecodeSize(width: Int, height: Int) {}
    func picture(heard: Double) -> Picture? { nil }
    func recycle(_ picture: Picture) {}
    func seek(to seconds: Double, exact: Bool) { seeks.append(seconds) }
    func takeProblem() -> String? { nil }
}

final class SteeredProbe: ServerProbe {
    var consecutiveAnswers = 0
}

struct ServerAway: Error, CustomStringConvertible {
    var description: String { "no audio server: Connection refused" }
}
