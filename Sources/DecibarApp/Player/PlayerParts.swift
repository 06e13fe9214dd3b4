import DecibarAudio
import DecibarCore

/// A track's stream on the sound server (`PulsePlayer`): it plays, pauses, seeks and reports.
protocol TrackOutput: AnyObject {
    /// What it writes, as 256-frame buffers stamped with when each will be heard.
    var buffers: AudioBufferStream { get }
    var sampleRate: Int { get }
    /// The frame being heard now.
    var heardFrame: Int64 { get }
    var isPaused: Bool { get }
    /// Seconds from a sample written until it is heard.
    var latency: Double { get }
    /// Everything was written and heard.
    var isFinished: Bool { get }
    var isServerLost: Bool { get }
    var underrunCount: Int { get }
    var dropoutCount: Int { get }
    var lastSeekWrittenAt: Double? { get }
    func play()
    func pause()
    func stop()
    func seek(toFrame frame: Int64)
    func setVolume(_ percent: Double)
    func setTimeAndPitch(rate: Double, pitchScale: Double) -> Bool
}

/// A track's decoded audio (`FilePlaybackSource`), which the output plays.
protocol TrackSource: PlaybackSource {
    var path: String { get }
    var estimatedFrameCount: Int64? { get }
    var tags: TrackTags { get }
    /// Why decoding stopped early, if it did.
    var failure: AudioFileError? { get }
    var bufferedSeconds: Double { get }
    var isDecodedToEnd: Bool { get }
    var capacitySeconds: Double { get }
    /// Jumps from the loop's end back to its start from now on (nil: plays on).
    func setLoop(_ loop: ABLoop?)
}

/// A streamed track's download (`StreamDownload`).
protocol TrackDownload: AnyObject {
    var url: String { get }
    var snapshot: StreamSnapshot { get }
    /// The decoder waits for bytes that have not arrived.
    var isPlayerWaiting: Bool { get }
    func cancel()
}

/// A streamed track opening on a thread of its own (`PendingOpen`).
protocol TrackConnection: AnyObject {
    var download: any TrackDownload { get }
    /// The opened track, or why it could not be opened; nil while still opening.
    var outcome: Result<any TrackSource, AudioFileError>? { get }
    func cancel()
}

/// A track's overview, computed on its own thread (`PeaksJob`).
protocol TrackOverview: AnyObject {
    var snapshot: PeaksJob.Snapshot { get }
    func cancel()
}

/// A track's picture: a video or cover art (`VideoPlayback`).
protocol TrackPicture: AnyObject {
    var path: String { get }
    var info: VideoPlayback.Info? { get }
    var counts: (shown: Int, dropped: Int) { get }
    func setDecodeSize(width: Int, height: Int)
    func picture(heard: Double) -> Picture?
    func recycle(_ picture: Picture)
    func seek(to seconds: Double, exact: Bool)
    func takeProblem() -> String?
}

/// Looks for a sound server that went away (`SoundServerProbe`).
protocol ServerProbe: AnyObject {
    /// Looks in a row the server answered.
    var consecutiveAnswers: Int { get }
}

/// Makes what a `PlaySession` drives. The system's parts play through PulseAudio and decode with
/// FFmpeg; tests give parts they steer, so every transition runs without a server.
protocol PlayerParts {
    func openFile(_ path: String) throws(AudioFileError) -> any TrackSource
    /// Starts opening an address (taking over `reusing`, the same address's download).
    func connect(to url: String, settings: StreamSettings, reusing: (any TrackDownload)?) -> any TrackConnection
    /// Starts downloading an address before it is opened.
    func download(_ url: String, settings: StreamSettings) -> any TrackDownload
    /// Plays `source` at `rateAndPitch` from its first frame.
    func output(playing source: any TrackSource, volume: Double, rateAndPitch: RateAndPitch) throws -> any TrackOutput
    func overview(of path: String, source: any TrackSource, following download: (any TrackDownload)?) -> any TrackOverview
    func picture(of path: String, following download: (any TrackDownload)?) -> any TrackPicture
    func serverProbe() -> any ServerProbe
}

extension PulsePlayer: TrackOutput {}
extension FilePlaybackSource: TrackSource {}
extension StreamDownload: TrackDownload {}
extension PeaksJob: TrackOverview {}
extension VideoPlayback: TrackPicture {}
extension SoundServerProbe: ServerProbe {}
