import DecibarAudio
import DecibarCore
import Foundation

/// The playlist and its transport: which file plays, its player and overview, play, pause, stop,
/// seek, volume and loop, and what happens at the end of each file. Keys, `ctl` and MPRIS all
/// act through it, on the main thread. A file that cannot be played is reported in one line and
/// skipped.
final class PlaySession {
    private(set) var files: [String]
    /// What happens at the end of a track (`l` cycles it).
    var loop: LoopMode {
        didSet { if loop != oldValue { announce("loop: \(loop.rawValue)") } }
    }
    /// At the end of the list (without a loop) the session is over, instead of showing the last
    /// track stopped: for scripts (`--exit-at-end`).
    let exitsAtEnd: Bool
    /// Percent on the sound server's scale.
    private(set) var volume: Double
    /// Speed and pitch, kept from track to track.
    private(set) var rateAndPitch: RateAndPitch
    let heard = AudioFeed()
    private(set) var index = -1
    private(set) var player: PulsePlayer?
    private var source: FilePlaybackSource?
    /// The download behind a streamed track.
    private(set) var download: StreamDownload?
    /// A streamed track still connecting.
    private var pending: PendingOpen?
    /// The download of the current streamed track while it is stopped.
    private var keptDownload: StreamDownload?
    /// A streamed track is held (its stream corked) until enough audio is decoded ahead.
    private(set) var isBuffering = false
    /// Times the network fell behind this streamed track while it played.
    private(set) var bufferingCount = 0
    /// This track's stretches of silence from players already closed (kept once it stops; a new
    /// track starts from 0).
    private var closedUnderruns = 0, closedDropouts = 0
    /// The times decoding fell behind the sound in this track.
    var underrunCount: Int { closedUnderruns + (player?.underrunCount ?? 0) }
    /// The times the machine was too busy to hand over this track's audio in time.
    var dropoutCount: Int { closedDropouts + (player?.dropoutCount ?? 0) }
    /// How streamed tracks are fetched.
    var streamSettings = StreamSettings()
    private(set) var peaks: PeaksJob?
    /// Where a video's picture goes; `.off` plays video files as audio alone.
    var videoLayout: VideoLayout = .under
    /// The open track's picture (a video, or cover art), while pictures are shown; its `info` is
    /// nil for a track without one. A file without one is no news; a picture that cannot be shown
    /// is said in one line, and the audio plays.
    private(set) var video: VideoPlayback?
    private(set) var duration: Double = 0
    /// The open track as the desktop sees it (MPRIS metadata).
    private(set) var track: MediaTrack?
    private var tags = TrackTags()
    private var pump: FeedPump?
    /// Set when nothing could be played, or the list ended with `exitsAtEnd`.
    private(set) var isOver = false
    /// Stopped: the track stays on screen with the playhead at the start, and no stream is open.
    private(set) var isStopped = false
    /// Grows at every jump of the playhead (a seek, a drag, a track played again, a stop), so that
    /// MPRIS can signal Seeked.
    private(set) var seekCount = 0
    /// Where the latest jump went, in seconds.
    private(set) var lastSeekTarget = 0.0
    /// A short message about a change (volume, loop), and a number that grows with each.
    private(set) var notice = (text: "", serial: 0)
    /// Files that played (to their end, or until the user moved on) without a problem.
    private(set) var cleanFileCount = 0
    /// Files that could not be opened or broke while playing (each reported in one line).
    private(set) var failureCount = 0
    /// The last file that opened, to show stopped when the files after it cannot be played.
    private var lastPlayableIndex: Int?
    /// Set while the sound server is away: where the track was, whether it played, and the probe
    /// looking for the server (off the frame thread). The track opens there again once it is back.
    private var serverLoss: (position: Double, playing: Bool, probe: SoundServerProbe)?
    /// The playhead while the player last played well: a lost stream's own clock says nothing.
    private var lastGoodPlayhead = 0.0
    /// Where a stream opened again after the server came back goes, once it is open.
    private var resumeSeek: Double?
    init(files: [String], loop: LoopMode, exitsAtEnd: Bool = false, volume: Double = PlayerVolume.defaultPercent,
         rateAndPitch: RateAndPitch = .normal) {
        self.files = files
        self.loop = loop
        self.exitsAtEnd = exitsAtEnd
        self.volume = PlayerVolume.clamped(volume)
        self.rateAndPitch = rateAndPitch
    }

    /// The name of the file playing (its last path component).
    private(set) var currentName = ""
    var sampleRate: Int { player?.sampleRate ?? 48000 }

    var status: PlaybackStatus {
        if isOver || index < 0 { return .idle }
        if isStopped { return .stopped }
        if pending != nil || isBuffering { return .buffering }
        guard let player else { return .idle }
        return player.isPaused ? .paused : .playing
    }

    /// Something is open (playing, paused or stopped).
    var hasTrack: Bool { status != .idle }

    /// Opens the file at `start` or the next playable one after it, in `direction`.
    func open(from start: Int, direction: Int = 1, autoplay: Bool = true, tries: Int? = nil) {
        close()
        resumeSeek = nil
        isOver = false
        isStopped = false
        for candidate in PlaylistMove.candidates(from: start, direction: direction, count: files.count, loop: loop, tries: tries) {
            if openFile(at: candidate, autoplay: autoplay, direction: direction) { return }
        }
        // Nothing after it plays: the end of the list.
        if let last = lastPlayableIndex, !exitsAtEnd, openFile(at: last, autoplay: false) {
            releasePlayer()
            isStopped = true
        } else {
            isOver = true
        }
    }

    private func openFile(at index: Int, autoplay: Bool, keepsOverview: Bool = false, direction: Int = 1) -> Bool {
        let path = files[index]
        if case .remote(let url) = MediaLocation(path) {
            // Opens on its own thread; `tick` takes it over (or moves on) when it is done.
            let reused = keptDownload.flatMap { $0.url == url && $0.snapshot.failure == nil ? $0 : nil }
            if reused == nil { keptDownload?.cancel() }
            keptDownload = nil
            pending = PendingOpen(url: url, index: index, direction: direction, autoplay: autoplay,
                                  keepsOverview: keepsOverview, settings: streamSettings, reusing: reused)
            self.index = index
            currentName = MediaLocation(path).displayName
            isStopped = false
            writeError("connecting to \(url.escapingControlCharacters)")
            return true
        }
        do {
            return try adopt(FilePlaybackSource(path: path), at: index, autoplay: autoplay, keepsOverview: keepsOverview)
        } catch {
            writeError(error.description)
        }
        failureCount += 1
        return false
    }

    /// Plays an opened track: its stream on the server, its overview and its place in the list.
    private func adopt(_ source: FilePlaybackSource, at index: Int, autoplay: Bool, keepsOverview: Bool,
                       download: StreamDownload? = nil) -> Bool {
        let path = files[index]
        do {
            let player = try PulsePlayer(source: source, volume: volume)
            if !rateAndPitch.isNormal && !player.setTimeAndPitch(rate: rateAndPitch.rate, pitchScale: rateAndPitch.pitchScale) {
                writeError("\(path): this audio cannot change speed or pitch; it plays as it is")
            }
            self.index = index
            lastPlayableIndex = index
            currentName = MediaLocation.isRemote(path) ? MediaLocation(path).displayName : OutputPath.name(of: path)
            self.player = player
            self.source = source
            self.download = download
            isStopped = false
            if !keepsOverview || peaks == nil {
                closedUnderruns = 0
                closedDropouts = 0
                bufferingCount = 0
                peaks?.cancel()
                duration = Double(source.estimatedFrameCount ?? 0) / Double(source.sampleRate)
                peaks = PeaksJob(path: path, audio: PeaksCache.Audio(source), following: download)
                tags = source.tags
                track = MediaTrack(index: index, path: Self.absolute(path), tags: tags, duration: duration)
            }
            pump = FeedPump(player.buffers, into: heard)
            if keepsOverview, let video, video.path == path {
                video.seek(to: 0, exact: true)
            } else {
                video = videoLayout == .off ? nil : VideoPlayback(path: path, source: download?.follower)
            }
            writeError("playing \(path)")
            // A stream starts once enough of it is decoded (`tick`); a file at once.
            if autoplay {
                if download != nil { isBuffering = true } else { player.play() }
            }
            return true
        } catch {
            writeError("\(path.escapingControlCharacters): \(error)")
        }
        download?.cancel()
        failureCount += 1
        return false
    }

    private static func absolute(_ path: String) -> String {
        MediaLocation.isRemote(path) || path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Closes the stream and the decoder; the track, its overview and the playhead's place on
    /// screen stay.
    private func releasePlayer() {
        serverLoss = nil
        // A file that broke while playing (it then ended early) is reported once, like one that cannot open.
        if let source {
            // Underruns are not failures, but a user should know the sound had gaps, and why. (A
            // stream that broke ran dry because it broke: its failure says so.)
            if let underruns = player?.underrunCount, underruns > 0, source.failure == nil {
                writeError("\(source.path): \(underruns) underrun\(underruns == 1 ? "" : "s"): decoding fell behind the sound")
            }
            if let failure = source.failure {
                writeError(failure.description)
                failureCount += 1
            } else {
                cleanFileCount += 1
            }
        }
        source = nil
        pending?.cancel()
        pending = nil
        isBuffering = false
        // A stopped stream goes on downloading (its overview and cache complete, and playing it
        // again reads what is there); a radio stops.
        if let download, !download.snapshot.isEndless {
            keptDownload = download
        } else {
            download?.cancel()
        }
        download = nil
        pump?.cancel()
        pump = nil
        player?.stop()
        closedUnderruns += player?.underrunCount ?? 0
        closedDropouts += player?.dropoutCount ?? 0
        player = nil
        heard.discardWaiting()
    }

    func close() {
        releasePlayer()
        video = nil
        keptDownload?.cancel()
        keptDownload = nil
        peaks?.cancel()
    }

    /// The overview's frame count, once known, is the exact duration.
    func refreshDuration() {
        guard let snapshot = peaks?.snapshot, index >= 0 else { return }
        if snapshot.isDone, let frames = snapshot.frameCount, frames > 0, let done = snapshot.peaks {
            let exact = Double(frames) / Double(done.sampleRate)
            if exact != duration {
                duration = exact
                track = MediaTrack(index: index, path: Self.absolute(files[index]), tags: tags, duration: duration)
            }
        } else if let partial = snapshot.peaks, !snapshot.isDone {
            // A stream whose container does not state its length (or a radio): as long as what is
            // analyzed so far, growing as it arrives. The desktop hears of it every few seconds.
            let analyzed = Double(partial.length * partial.samplesPerPixel) / Double(partial.sampleRate)
            if analyzed > duration {
                duration = analyzed
                if analyzed > Double(track?.length ?? 0) / 1_000_000 + 5 {
                    track = MediaTrack(index: index, path: Self.absolute(files[index]), tags: tags, duration: duration)
                }
            }
        }
    }

    var playhead: Double {
        guard let player, !isStopped else { return 0 }
        let heard = Double(player.heardFrame) / Double(player.sampleRate)
        return isLive ? heard : min(duration, heard)
    }

    /// Starts downloading track `index` if it is an address and nothing is open yet, so that its
    /// first second arrives while the window is made; opening it then takes this download over.
    func prefetch(_ index: Int) {
        guard files.indices.contains(index), pending == nil, download == nil, keptDownload == nil,
              case .remote(let url) = MediaLocation(files[index]) else { return }
        keptDownload = StreamDownload(url: url, settings: streamSettings)
    }

    /// What the download of a streamed track (connecting or open) has so far.
    var streamSnapshot: StreamSnapshot? { (download ?? pending?.download ?? keptDownload)?.snapshot }

    /// An endless stream (a radio): no length, a rolling scrubber.
    var isLive: Bool { download?.snapshot.isEndless ?? false }

    // MARK: Transport

    func play() {
        // Waiting for the network: it plays as soon as it can.
        if status == .buffering { return }
        if isStopped {
            guard index >= 0, openFile(at: index, autoplay: true, keepsOverview: true) else { return }
        } else {
            player?.play()
        }
    }

    func pause() {
        guard !isStopped else { return }
        isBuffering = false
        pending?.autoplay = false
        player?.pause()
    }

    func togglePause() {
        if status == .playing || status == .buffering { pause() } else { play() }
    }

    /// Playback stops and the playhead returns to the start; the track stays on screen, and no
    /// stream stays open on the sound server (nothing more is written to it).
    func stop() {
        guard hasTrack, !isStopped else { return }
        releasePlayer()
        isStopped = true
        seekCount += 1
        lastSeekTarget = 0
        video?.seek(to: 0, exact: true)
    }

    func seek(to seconds: Double) {
        // A radio plays what is on air now.
        if isLive { return }
        if isStopped {
            // A stopped track opens again, paused where it was asked to be.
            guard index >= 0, openFile(at: index, autoplay: false, keepsOverview: true) else { return }
        }
        guard let player else { return }
        heard.discardWaiting()
        let target = max(0, min(duration, seconds))
        player.seek(toFrame: Int64((target * Double(player.sampleRate)).rounded()))
        video?.seek(to: target, exact: true)
        seekCount += 1
        lastSeekTarget = target
    }

    func setVolume(_ percent: Double) {
        volume = PlayerVolume.clamped(percent)
        player?.setVolume(volume)
        announce("volume \(Int(volume.rounded())) %")
    }

    /// Changes speed and pitch while playing, without a gap; the playhead stays in file time.
    func setRateAndPitch(_ wanted: RateAndPitch) {
        rateAndPitch = wanted
        if let player, !player.setTimeAndPitch(rate: wanted.rate, pitchScale: wanted.pitchScale) {
            writeError("\(currentName): this audio cannot change speed or pitch; it plays as it is")
        }
        // Away from normal the title shows the rate and pitch for as long as they last.
        if wanted.isNormal { announce("normal speed and pitch") }
    }

    /// At the end of a track: the same track again, the next one, or the end of the list.
    func trackEnded() {
        go(PlaylistMove.afterTrack(index, count: files.count, loop: loop))
    }

    /// Carries out a move in the list.
    private func go(_ move: PlaylistMove) {
        switch move {
        case .open(let start, let direction): open(from: start, direction: direction)
        case .replay:
            seek(to: 0)
            player?.play()
        case .seekToStart: seek(to: 0)
        case .endOfList: endOfList()
        }
    }

    /// Shows the last track stopped, or ends the session for scripts.
    private func endOfList() {
        if exitsAtEnd {
            close()
            isOver = true
        } else {
            stop()
        }
    }

    /// Adds files to the end of the list.
    func append(_ more: [String]) {
        files += more
        isOver = false
    }

    var canGoNext: Bool { PlaylistMove.canGoNext(from: index, count: files.count, loop: loop) }
    var canGoPrevious: Bool { PlaylistMove.canGoPrevious(from: index, count: files.count, loop: loop) }

    func next() { go(PlaylistMove.next(from: index, count: files.count, loop: loop)) }

    func previous() { go(PlaylistMove.previous(from: index, count: files.count, loop: loop)) }

    /// Checks for the end of the track; call every frame (or tick while hidden).
    func tick() {
        if let pending, let outcome = pending.outcome {
            self.pending = nil
            switch outcome {
            case .success(let source):
                if adopt(source, at: pending.index, autoplay: pending.autoplay, keepsOverview: pending.keepsOverview,
                         download: pending.download) {
                    if let target = resumeSeek { seek(to: target) }
                    resumeSeek = nil
                    return
                }
            case .failure(let error):
                writeError(error.description)
                failureCount += 1
            }
            // Like a file that cannot be opened: on to the next one.
            open(from: pending.index + pending.direction, direction: pending.direction, autoplay: pending.autoplay,
                 tries: max(0, files.count - 1))
            return
        }
        if let player, player.isServerLost, serverLoss == nil, !isStopped {
            serverLoss = (lastGoodPlayhead, !player.isPaused && !isBuffering, SoundServerProbe())
            writeError("the sound server went away; playing on when it is back")
        } else if player != nil, serverLoss == nil {
            lastGoodPlayhead = playhead
        }
        if serverLoss != nil {
            resumeAfterServerLoss()
            return
        }
        updateBuffering()
        if let problem = video?.takeProblem() { writeError(problem) }
        if player?.isFinished == true { trackEnded() }
    }

    /// Once the probe has heard the server answer twice in a row (a server that has just started
    /// may still be loading its outputs), opens the track again where it was (a stream starts
    /// again from where its address starts).
    private func resumeAfterServerLoss() {
        guard let loss = serverLoss, loss.probe.consecutiveAnswers >= 2 else { return }
        releasePlayer()
        guard index >= 0, openFile(at: index, autoplay: loss.playing, keepsOverview: true) else {
            // Not playable yet: look again (the track itself is reported by the open).
            serverLoss = (loss.position, loss.playing, SoundServerProbe())
            return
        }
        if loss.position > 0 {
            // A stream opens on its own thread: it goes there once it is open.
            if pending != nil { resumeSeek = loss.position } else if player != nil { seek(to: loss.position) }
        }
        lastGoodPlayhead = loss.position
        writeError("the sound server is back")
    }

    /// Below this much decoded audio, with the decoder waiting for the network, a stream is held.
    static let underrunSeconds = 0.05

    /// Holds a stream whose network fell behind, and lets it go once enough is decoded ahead: the
    /// sound server never gets silence or old audio in the middle of a track.
    private func updateBuffering() {
        guard let download, let source, let player, !isStopped else { return }
        if isBuffering {
            let enough = min(streamSettings.startSeconds, source.capacitySeconds * 0.9)
            if source.bufferedSeconds >= enough || source.isDecodedToEnd || !download.isPlayerWaiting && download.snapshot.isComplete {
                isBuffering = false
                player.play()
            }
        } else if !player.isPaused, source.bufferedSeconds < Self.underrunSeconds, download.isPlayerWaiting {
            isBuffering = true
            bufferingCount += 1
            player.pause()
        }
    }

    /// A streamed track is still connecting.
    var isConnecting: Bool { pending != nil }

    private func announce(_ text: String) {
        notice = (text, notice.serial + 1)
    }
}
