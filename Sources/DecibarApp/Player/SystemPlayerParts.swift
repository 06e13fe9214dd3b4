import DecibarAudio
import DecibarCore

/// The parts that play for real.
struct SystemPlayerParts: PlayerParts {
    func openFile(_ path: String) throws(AudioFileError) -> any TrackSource {
        try FilePlaybackSource(path: path)
    }

    func connect(to url: String, settings: StreamSettings, reusing: (any TrackDownload)?) -> any TrackConnection {
        PendingOpen(url: url, settings: settings, reusing: reusing as? StreamDownload)
    }

    func download(_ url: String, settings: StreamSettings) -> any TrackDownload {
        StreamDownload(url: url, settings: settings)
    }

    func output(playing source: any TrackSource, volume: Double, rateAndPitch: RateAndPitch) throws -> any TrackOutput {
        try PulsePlayer(source: source, volume: volume, rate: rateAndPitch.rate, pitchScale: rateAndPitch.pitchScale,
                        priority: RealtimePriority.shared)
    }

    // Downloads here are always this file's `StreamDownload`s (made above).
    func overview(of path: String, source: any TrackSource, following download: (any TrackDownload)?) -> any TrackOverview {
        PeaksJob(path: path, audio: PeaksCache.Audio(source), following: download as? StreamDownload)
    }

    func picture(of path: String, following download: (any TrackDownload)?) -> any TrackPicture {
        VideoPlayback(path: path, source: (download as? StreamDownload)?.follower)
    }

    func serverProbe() -> any ServerProbe { SoundServerProbe() }
}
