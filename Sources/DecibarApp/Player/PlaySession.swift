import DecibarAudio
import DecibarCore
import Foundation

/// The playlist and its transport: which file plays, its player and overview, play, pause, stop,
/// seek, volume and loop, and what happens at the end of each file. Keys, `ctl` and MPRIS all
/// act through it, on the main thread. Its states and their transitions are `Transport`'s (pure);
/// this carries them out on its parts (output, source, download, overview, picture). A file that
/// cannot be played is reported in one line and skipped.
final class PlaySession {
    private(set) var files: [String]
    private(set) var transport: Transport
    private let parts: any PlayerParts
    /// What happens at the end of a track (`l` cycles it).
    var loop: LoopMode {
        get { transport.loop }
        set {
            guard newValue != transport.loop else { return }
            transport.loop = newValue
            announce("loop: \(newValue.rawValue)")
        }
    }
    /// Percent on the sound server's scale.
    private(set) var volume: Double
    /// Speed and pitch, kept from track to track.
    private(set) var rateAndPitch: RateAndPitch
    let heard = AudioFeed()
    /// The track open or shown (-1 before the first).
    var index: Int { transport.index }
    private(set) var player: (any TrackOutput)?
    private(set) var source: (any TrackSource)?
    /// The download behind a streamed track.
    private(set) var download: (any TrackDownload)?
    /// A streamed track still connecting, and whether it keeps the overview shown.
    private var connection: (any TrackConnection)?
    private var connectionKeepsOverview = false
    /// The download of the current streamed track while it is stopped.
    private var keptDownload: (any TrackDownload)?
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
    private(set) var peaks: (any TrackOverview)?
    /// Where a video's picture goes; `.off` plays video files as audio alone.
    var videoLayout: VideoLayout = .under
    /// The open track's picture (a video, or cover art), while pictures are shown; its `info` is
    /// nil for a track without one. A file without one is no news; a picture that cannot be shown
    /// is said in one line, and the audio plays.
    private(set) var video: (any TrackPicture)?
    private(set) var duration: Double = 0
    /// The open track as the desktop sees it (MPRIS metadata).
    private(set) var track: MediaTrack?
    private var tags = TrackTags()
    /// The open track's chapters: the file's own, or its cue sheet's (PlaySession+Chapters).
    private(set) var chapters: [Chapter] = []
    /// The open track's lyrics or captions: a `.lrc`, `.srt` or `.vtt` of its name beside it.
    private(set) var captions: CaptionTrack?
    private var pump: FeedPump?
    /// Hears of the beats found in what plays, before they are heard (a daemon's beat subscribers).
    var beatListener: (@Sendable (BeatEvent) -> Void)?
    /// Told when beats found ahead will not be heard after all (a seek, the track closed): the
    /// listener drops those it holds.
    var unheardDropped: (() -> Void)?
    /// Whether beats are looked for in what plays (a daemon clears it while nothing needs them).
    var findsBeats = true {
        didSet { pump?.findsBeats = findsBeats }
    }
    /// The pump of the open track (for the tests).
    var feedPump: FeedPump? { pump }
    /// Where what plays is also sent (a daemon's outputs), as it is decoded.
    var outputs: OutputRelay?
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
    /// Looks for the sound server while it is away (off the frame thread).
    private var probe: (any ServerProbe)?
    /// The playhead while the player last played well: a lost stream's own clock says nothing.
    private var lastGoodPlayhead = 0.0
    /// The stretch of the track the scrubber shows, for the track it was set on (see PlaySession+View).
    var zoom = (view: ScrubberZoom(duration: 0), track: -1, follows: true)
    /// The scrubber's width in pixels as last drawn: how far in a zoom may go (10 ms a pixel).
    var scrubberWidth = 1000.0
    /// While shuffled: where each entry of `files` stood in the list as given (PlaySession+Shuffle).
    var shuffleOrder: [Int]?
    /// The A-B loop's ends in seconds, as far as they are set (PlaySession+ABLoop).
    var loopPoints: (start: Double?, end: Double?) = (nil, nil)
    /// While the scrubber's drag is heard (PlaySession+Scrub).
    var scrubbing: ScrubAudio?
    /// The finer overview of a zoomed stretch, when the stored one is too coarse there (PlaySession+View).
    var rangeOverview: RangeOverview?

    init(files: [String], loop: LoopMode, exitsAtEnd: Bool = false, volume: Double = PlayerVolume.defaultPercent,
         rateAndPitch: RateAndPitch = .normal, parts: any PlayerParts = SystemPlayerParts()) {
        self.files = files
        transport = Transport(trackCount: files.count, loop: loop, exitsAtEnd: exitsAtEnd)
        self.parts = parts
        self.volume = PlayerVolume.clamped(volume)
        self.rateAndPitch = rateAndPitch
    }

    /// The name of the file playing (its last path component).
    private(set) var currentName = ""
    var sampleRate: Int { player?.sampleRate ?? 48000 }

    var status: PlaybackStatus { transport.state.status }

    /// Something is open (playing, paused or stopped).
    var hasTrack: Bool { transport.state.hasTrack }

    /// Nothing could be played, or the list ended for a script.
    var isOver: Bool { transport.state == .over }

    /// Opens the file at `start` or the next playable one after it, in `direction`.
    func open(from start: Int, direction: Int = 1, autoplay: Bool = true, tries: Int? = nil) {
        close()
        for candidate in PlaylistMove.candidates(from: start, direction: direction, count: files.count, loop: loop, tries: tries) {
            if openFile(at: candidate, autoplay: autoplay, direction: direction) { return }
        }
        // Nothing after it plays: the end of the list.
        apply(.nothingPlayable(lastPlayable: lastPlayableIndex))
    }

    /// Opens track `index`; a streamed one starts connecting (`tick` takes it over once open).
    private func openFile(at index: Int, autoplay: Bool, keepsOverview: Bool = false, direction: Int = 1,
                          resumeAt: Double? = nil) -> Bool {
        let path = files[index]
        if case .remote(let url) = MediaLocation(path) {
            let reused = keptDownload.flatMap { $0.url == url && $0.snapshot.failure == nil ? $0 : nil }
            if reused == nil { keptDownload?.cancel() }
            keptDownload = nil
            connection = parts.connect(to: url, settings: streamSettings, reusing: reused)
            connectionKeepsOverview = keepsOverview
            currentName = MediaLocation(path).displayName
            writeError("connecting to \(url.escapingControlCharacters)")
            apply(.connecting(index: index, .init(autoplay: autoplay, direction: direction, resumeAt: resumeAt)))
            return true
        }
        do throws(AudioFileError) {
            return adopt(try parts.openFile(path), at: index, autoplay: autoplay, keepsOverview: keepsOverview, resumeAt: resumeAt)
        } catch {
            writeError(error.description)
        }
        failureCount += 1
        return false
    }

    /// Plays an opened track: its stream on the server, its overview and its place in the list.
    private func adopt(_ source: any TrackSource, at index: Int, autoplay: Bool, keepsOverview: Bool, resumeAt: Double?,
                       download: (any TrackDownload)? = nil) -> Bool {
        let path = files[index]
        do {
            let player = try parts.output(playing: source, volume: volume, rateAndPitch: rateAndPitch)
            if !rateAndPitch.isNormal && !player.setTimeAndPitch(rate: rateAndPitch.rate, pitchScale: rateAndPitch.pitchScale) {
                writeError("\(path): this audio cannot change speed or pitch; it plays as it is")
            }
            lastPlayableIndex = index
            currentName = Self.name(of: path)
            self.player = player
            self.source = source
            self.download = download
            // The same track again keeps its loop; another starts without one.
            if !keepsOverview { loopPoints = (nil, nil) }
            source.setLoop(abLoop.flatMap { ABLoop(seconds: $0.start, $0.end, sampleRate: source.sampleRate) })
            if !keepsOverview || peaks == nil {
                closedUnderruns = 0
                closedDropouts = 0
                bufferingCount = 0
                showOverview(of: source, at: index, following: download)
            }
            let (outputs, beatListener) = (self.outputs, self.beatListener)
            // The outputs hear the player from its first buffer (the daemon's loop would switch
            // them a frame, or a quarter of a second, later: a track's first sound went unsent).
            outputs?.use(.player) { 0 }
            let outputBeats = outputs?.beatListener(from: .player)
            pump = FeedPump(player.buffers, into: heard, also: outputs.map { relay in { @Sendable in relay.add($0, from: .player) } },
                            told: outputs == nil ? beatListener : { @Sendable event in
                                beatListener?(event)
                                outputBeats?(event)
                            })
            pump?.findsBeats = findsBeats
            if keepsOverview, let video, video.path == path {
                video.seek(to: 0, exact: true)
            } else {
                video = videoLayout == .off ? nil : parts.picture(of: path, following: download)
            }
            writeError("playing \(path)")
            // A stream starts once enough of it is decoded (`tick`); a file at once.
            apply(.opened(index: index, streamed: download != nil, autoplay: autoplay, resumeAt: resumeAt))
            return true
        } catch {
            writeError("\(path.escapingControlCharacters): \(error)")
        }
        download?.cancel()
        failureCount += 1
        return false
    }

    /// An address's display name, or a file's last path component.
    private static func name(of path: String) -> String {
        MediaLocation.isRemote(path) ? MediaLocation(path).displayName : OutputPath.name(of: path)
    }

    /// A path made full (the desktop and the daemon's clients have other working folders).
    static func absolute(_ path: String) -> String {
        MediaLocation.isRemote(path) || path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    /// Closes the stream and the decoder; the track, its overview and the playhead's place on
    /// screen stay.
    private func releasePlayer() {
        probe = nil
        // A file that broke while playing (it then ended early) is reported once, like one that cannot open.
        if let source {
            // Underruns are not failures, but a user should know the sound had gaps, and why. (A
            // stream that broke ran dry because it broke: its failure says so.)
            if let underruns = player?.underrunCount, underruns > 0, source.failure == nil {
                writeError("\(source.path): \(underruns) underrun\(underruns == 1 ? "" : "s"): decoding fell behind the sound")
            }
            // Silence the sound server played because this process was not scheduled in time.
            if let dropouts = player?.dropoutCount, dropouts > 0 {
                writeError("\(source.path): the sound server ran dry \(dropouts) time\(dropouts == 1 ? "" : "s"): the machine was too busy")
            }
            if let failure = source.failure {
                writeError(failure.description)
                failureCount += 1
            } else {
                cleanFileCount += 1
            }
        }
        source = nil
        scrubbing = nil
        connection?.cancel()
        connection = nil
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
        outputs?.discardWaiting(from: .player)
        unheardDropped?()
    }

    func close() {
        releasePlayer()
        video = nil
        keptDownload?.cancel()
        keptDownload = nil
        peaks?.cancel()
        dropRangeOverview()
    }

    /// The overview's frame count, once known, is the exact duration.
    func refreshDuration() {
        guard let snapshot = peaks?.snapshot, index >= 0 else { return }
        if snapshot.isDone, let frames = snapshot.frameCount, frames > 0, let done = snapshot.peaks {
            let exact = Double(frames) / Double(done.sampleRate)
            if exact != duration {
                duration = exact
                track = MediaTrack(index: index, path: Self.absolute(files[index]), tags: tags, duration: duration, artURL: track?.artURL, lyrics: track?.lyrics)
            }
        } else if let partial = snapshot.peaks, !snapshot.isDone {
            // A stream whose container does not state its length (or a radio): as long as what is
            // analyzed so far, growing as it arrives. The desktop hears of it every few seconds.
            let analyzed = Double(partial.length * partial.samplesPerPixel) / Double(partial.sampleRate)
            if analyzed > duration {
                duration = analyzed
                if analyzed > Double(track?.length ?? 0) / 1_000_000 + 5 {
                    track = MediaTrack(index: index, path: Self.absolute(files[index]), tags: tags, duration: duration, artURL: track?.artURL, lyrics: track?.lyrics)
                }
            }
        }
    }

    var playhead: Double {
        if case .serverLost(let position, _) = transport.state { return position }
        guard let player, transport.state.hasOutput else { return 0 }
        let heard = Double(player.heardFrame) / Double(player.sampleRate)
        return isLive ? heard : min(duration, heard)
    }

    /// Starts downloading track `index` if it is an address and nothing is open yet, so that its
    /// first second arrives while the window is made; opening it then takes this download over.
    func prefetch(_ index: Int) {
        guard files.indices.contains(index), connection == nil, download == nil, keptDownload == nil,
              case .remote(let url) = MediaLocation(files[index]) else { return }
        keptDownload = parts.download(url, settings: streamSettings)
    }

    /// What the download of a streamed track (connecting or open) has so far.
    var streamSnapshot: StreamSnapshot? { (download ?? connection?.download ?? keptDownload)?.snapshot }

    /// An endless stream (a radio): no length, a rolling scrubber.
    var isLive: Bool { download?.snapshot.isEndless ?? false }

    /// A streamed track is still connecting.
    var isConnecting: Bool { connection != nil }

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

    /// Adds files to the end of the list.
    func append(_ more: [String]) {
        // Shuffled, new files go at the end of the play order, where they also stand in the list.
        shuffleOrder? += (files.count ..< files.count + more.count)
        files += more
        transport.trackCount = files.count
    }

    /// Puts the list in a new order (shuffle on or off); the track open plays on where it now stands.
    func reorder(_ reordered: [String], currentAt position: Int) {
        files = reordered
        transport.renumber(to: position)
        // The same track: its zoom and MPRIS identity follow it.
        if zoom.track >= 0 { zoom.track = position }
        if position >= 0, let track { self.track = MediaTrack(index: position, path: Self.absolute(files[position]), tags: tags,
                                                             duration: duration, artURL: track.artURL, lyrics: track.lyrics) }
    }

    /// Takes a streamed track once it is open, notices the server leaving and coming back, holds
    /// a stream the network fell behind, and moves on at the end of a track; call every frame (or
    /// tick while hidden). It only reads what the parts' own threads found.
    func tick() {
        if let connection, let outcome = connection.outcome {
            self.connection = nil
            switch outcome {
            case .success(let source):
                if adopt(source, at: index, autoplay: true, keepsOverview: connectionKeepsOverview, resumeAt: nil,
                         download: connection.download) { return }
            case .failure(let error):
                writeError(error.description)
                failureCount += 1
            }
            apply(.openFailed)
            return
        }
        if let player, player.isServerLost, transport.state.hasOutput {
            writeError("the sound server went away; playing on when it is back")
            apply(.serverLost(position: lastGoodPlayhead))
        } else if player != nil, transport.state.hasOutput {
            lastGoodPlayhead = playhead
        }
        if case .serverLost = transport.state {
            if let probe, probe.consecutiveAnswers >= 2 { apply(.serverBack) }
            return
        }
        updateBuffering()
        if let problem = video?.takeProblem() { writeError(problem) }
        // A grain at the end of the track while dragging ends nothing: the release seeks.
        if player?.isFinished == true && scrubbing == nil { apply(.trackEnded) }
    }

    /// Below this much decoded audio, with the decoder waiting for the network, a stream is held.
    static let underrunSeconds = 0.05

    /// Holds a stream whose network fell behind, and lets it go once enough is decoded ahead: the
    /// sound server never gets silence or old audio in the middle of a track.
    private func updateBuffering() {
        guard let download, let source, player != nil else { return }
        switch transport.state {
        case .buffering:
            let enough = min(streamSettings.startSeconds, source.capacitySeconds * 0.9)
            if source.bufferedSeconds >= enough || source.isDecodedToEnd || !download.isPlayerWaiting && download.snapshot.isComplete {
                apply(.refilled)
            }
        case .playing:
            if source.bufferedSeconds < Self.underrunSeconds, download.isPlayerWaiting {
                bufferingCount += 1
                apply(.ranLow)
            }
        default: break
        }
    }

    // MARK: Carrying out the transport's effects

    /// Tells the transport what happened and does what it says.
    func apply(_ event: Transport.Event) {
        for effect in transport.handle(event) { perform(effect) }
    }

    private func perform(_ effect: Transport.Effect) {
        switch effect {
        case .resumeOutput: player?.play()
        case .pauseOutput: player?.pause()
        case .seekOutput(let target): moveOutput(to: target)
        case .release: releasePlayer()
        case .close: close()
        case .rewind:
            seekCount += 1
            lastSeekTarget = 0
            video?.seek(to: 0, exact: true)
        case .open(let start, let direction, let autoplay, let tries):
            open(from: start, direction: direction, autoplay: autoplay, tries: tries)
        case .reopen(let autoplay, let resumeAt): reopen(autoplay: autoplay, resumeAt: resumeAt)
        case .showStopped(let index): showStopped(index)
        case .lookForServer: probe = parts.serverProbe()
        }
    }

    /// What was decoded for the bars, the outputs and the beat listener but not heard yet: a jump
    /// makes it never heard.
    func discardHeard() {
        heard.discardWaiting()
        outputs?.discardWaiting(from: .player)
        unheardDropped?()
    }

    private func moveOutput(to target: Double) {
        guard let player else { return }
        let frame = Int64((target * Double(player.sampleRate)).rounded())
        // Audio written before the jump may still be on its way to the pump: it is dropped until
        // the new audio (which starts at the target frame) comes, so none of its beats is told.
        pump?.awaitFrame(max(0, frame))
        discardHeard()
        player.seek(toFrame: frame)
        video?.seek(to: target, exact: true)
        seekCount += 1
        lastSeekTarget = target
    }

    /// The current track again (stopped, or the server back), keeping its overview.
    private func reopen(autoplay: Bool, resumeAt: Double?) {
        guard index >= 0 else { return }
        let serverWasLost = if case .serverLost = transport.state { true } else { false }
        guard openFile(at: index, autoplay: autoplay, keepsOverview: true, resumeAt: resumeAt) else {
            // Reported by the open; after a server loss it is looked for again.
            apply(.openFailed)
            return
        }
        if serverWasLost {
            lastGoodPlayhead = resumeAt ?? 0
            writeError("the sound server is back")
        }
    }

    /// The last track that opened, shown stopped when nothing after it plays (opened only to show
    /// its overview and picture).
    private func showStopped(_ index: Int) {
        let path = files[index]
        currentName = Self.name(of: path)
        guard !MediaLocation.isRemote(path), let source = try? parts.openFile(path) else { return }
        showOverview(of: source, at: index, following: nil)
        video = videoLayout == .off ? nil : parts.picture(of: path, following: nil)
    }

    /// A new track's length (estimated until its overview is done), overview, tags and metadata.
    private func showOverview(of source: any TrackSource, at index: Int, following download: (any TrackDownload)?) {
        let path = files[index]
        peaks?.cancel()
        dropRangeOverview()
        duration = Double(source.estimatedFrameCount ?? 0) / Double(source.sampleRate)
        peaks = parts.overview(of: path, source: source, following: download)
        tags = source.tags
        chapters = tags.chapters.isEmpty ? Self.cueChapters(beside: path) : tags.chapters
        captions = CaptionFile.captions(beside: path)
        track = MediaTrack(index: index, path: Self.absolute(path), tags: tags, duration: duration,
                           artURL: Self.coverURL(for: path, tags: tags), lyrics: captions?.plainText)
    }

    func announce(_ text: String) {
        notice = (text, notice.serial + 1)
    }
}
