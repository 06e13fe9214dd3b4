import DecibarAudio
import DecibarCore
import DecibarTestSupport
import Testing
@testable import DecibarApp

/// The player's transport carried out on steered parts: seek, next, loop, the end of the list,
/// the sound server lost and back, and a stream connecting and buffering. No sound server,
/// decoder, network or window.
@Suite("Play session")
struct PlaySessionTests {
    private func session(_ files: [String], loop: LoopMode = .none, exitsAtEnd: Bool = false,
                         parts: SteeredPlayerParts = SteeredPlayerParts()) -> (PlaySession, SteeredPlayerParts) {
        let session = PlaySession(files: files, loop: loop, exitsAtEnd: exitsAtEnd, parts: parts)
        session.videoLayout = .off
        return (session, parts)
    }

    @Test("open plays the first file at once; one that cannot be opened is skipped and counted")
    func openSkipsUnplayable() throws {
        let parts = SteeredPlayerParts()
        parts.unplayable = ["a.flac"]
        let (session, _) = session(["a.flac", "b.flac"], parts: parts)
        session.open(from: 0)
        #expect(session.status == .playing && session.index == 1 && session.currentName == "b.flac")
        #expect(parts.outputs.count == 1 && parts.output?.isPaused == false)
        #expect(session.failureCount == 1 && session.duration == 10)
    }

    @Test("seek moves the output to the exact frame, clamped to the track; each jump is counted")
    func seek() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        session.seek(to: 4.5)
        session.seek(to: 99)
        session.seek(to: -3)
        #expect(parts.output?.seeks == [216_000, 480_000, 0])
        #expect(session.seekCount == 3 && session.lastSeekTarget == 0)
        #expect(session.status == .playing)
    }

    @Test("zoom shows a stretch around the playhead; the view turns a page with it, stops following after a pan until a seek; a new track shows all of itself")
    func zoomAndFollow() throws {
        let (session, parts) = session(["a.flac", "b.flac"])
        session.open(from: 0)
        // 10 s files; a 100-pixel scrubber lets a zoom go to 10 (10 ms a pixel).
        session.scrubberWidth = 100
        let output = try #require(parts.output)
        #expect(session.view.isWhole && session.view.end == 10)
        output.hear(at: 5)
        session.zoom(to: 4)
        #expect(session.view.start == 3.75 && session.view.end == 6.25)
        session.zoom(to: 50)
        #expect(session.view.factor == 10 && session.view.start == 4.5)
        session.zoom(to: 4)
        output.hear(at: 6.5)
        session.followPlayhead(.page)
        #expect(session.view.start == 6.5 && session.view.end == 9)
        session.followPlayhead(.smooth)
        #expect(session.view.start == 5.25)
        // A look elsewhere on the minimap stays while the track plays on.
        session.pan(to: 0)
        output.hear(at: 9.5)
        session.followPlayhead(.page)
        #expect(session.view.start == 0)
        session.seek(to: 8)
        session.followPlayhead(.page)
        #expect(session.view.start == 7.5 && session.view.end == 10)
        // Paused, the view stays where it is.
        session.pause()
        session.pan(to: 1)
        session.seek(to: 9)
        session.followPlayhead(.page)
        #expect(session.view.start == 1)
        session.next()
        #expect(session.index == 1 && session.view.isWhole && session.view.end == 10)
    }

    @Test("shuffle reorders the list with the track playing first; next follows the new order; off puts the list back and keeps playing")
    func shuffle() throws {
        let names = ["a.flac", "b.flac", "c.flac", "d.flac", "e.flac"]
        let (session, _) = session(names)
        session.open(from: 2)
        #expect(session.currentName == "c.flac" && !session.shuffle)
        var generator = SeededGenerator(state: 11)
        session.setShuffle(true, using: &generator)
        #expect(session.shuffle && session.index == 0 && session.files[0] == "c.flac" && Set(session.files) == Set(names))
        #expect(session.track?.id == "/org/decibar/track/0")
        session.next()
        let second = session.files[1]
        #expect(session.currentName == second && session.index == 1)
        session.append(["f.flac"])
        #expect(session.files.last == "f.flac")
        session.setShuffle(false)
        #expect(!session.shuffle && session.files == names + ["f.flac"])
        #expect(session.index == session.files.firstIndex(of: second) && session.currentName == second)
    }

    @Test("pause and play cork and uncork the same stream; the playhead is the output's")
    func pauseAndPlay() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        let output = try #require(parts.output)
        output.hear(at: 2.5)
        session.togglePause()
        #expect(session.status == .paused && output.isPaused && session.playhead == 2.5)
        session.togglePause()
        #expect(session.status == .playing && !output.isPaused && parts.outputs.count == 1)
    }

    @Test("next and previous: skip what cannot play, and previous on the first track goes to its start")
    func nextAndPrevious() throws {
        let parts = SteeredPlayerParts()
        parts.unplayable = ["b.flac"]
        let (session, _) = session(["a.flac", "b.flac", "c.flac"], parts: parts)
        session.open(from: 0)
        let first = try #require(parts.output)
        session.next()
        #expect(session.index == 2 && first.isStopped && parts.outputs.count == 2)
        session.previous()
        #expect(session.index == 0, "b is skipped going back too")
        parts.output?.hear(at: 3)
        session.previous()
        #expect(session.index == 0 && parts.output?.seeks == [0] && session.status == .playing)
        session.next()
        session.next()
        #expect(session.status == .stopped && session.index == 2, "next past the last stops on it")
    }

    @Test("loop track plays the same stream again from its start")
    func loopTrack() throws {
        let (session, parts) = session(["a.flac", "b.flac"], loop: .track)
        session.open(from: 0)
        let output = try #require(parts.output)
        output.isFinished = true
        session.tick()
        #expect(session.index == 0 && parts.outputs.count == 1 && output.seeks == [0] && session.status == .playing)
        #expect(session.seekCount == 1)
    }

    @Test("loop playlist goes from the last track to the first")
    func loopPlaylist() throws {
        let (session, parts) = session(["a.flac", "b.flac"], loop: .playlist)
        session.open(from: 1)
        parts.output?.isFinished = true
        session.tick()
        #expect(session.index == 0 && session.status == .playing && parts.outputs.count == 2)
    }

    @Test("at the end of the list the last track stays on screen, stopped, with nothing open; play opens it again")
    func stopAtEnd() throws {
        let (session, parts) = session(["a.flac", "b.flac"])
        session.open(from: 0)
        parts.output?.isFinished = true
        session.tick()
        #expect(session.index == 1)
        let last = try #require(parts.output)
        last.hear(at: 10)
        last.isFinished = true
        session.tick()
        #expect(session.status == .stopped && session.index == 1 && last.isStopped && session.player == nil)
        #expect(session.playhead == 0 && session.lastSeekTarget == 0 && session.currentName == "b.flac")
        #expect(session.cleanFileCount == 2)
        session.play()
        #expect(session.status == .playing && session.index == 1 && parts.outputs.count == 3)
    }

    @Test("a seek while stopped opens the track again, paused there")
    func seekWhileStopped() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        session.stop()
        #expect(session.status == .stopped && parts.output?.isStopped == true)
        session.seek(to: 7)
        #expect(session.status == .paused && parts.outputs.count == 2 && parts.output?.seeks == [336_000])
    }

    @Test("with --exit-at-end the end of the list is the end of the session")
    func exitAtEnd() throws {
        let (session, parts) = session(["a.flac"], exitsAtEnd: true)
        session.open(from: 0)
        parts.output?.isFinished = true
        session.tick()
        #expect(session.isOver && session.status == .idle && session.player == nil)
    }

    @Test("when nothing after a track plays, the last one that did is shown stopped")
    func nothingAfterPlays() throws {
        let parts = SteeredPlayerParts()
        parts.unplayable = ["b.flac", "c.flac"]
        let (session, _) = session(["a.flac", "b.flac", "c.flac"], parts: parts)
        session.open(from: 0)
        parts.output?.isFinished = true
        session.tick()
        #expect(session.status == .stopped && session.index == 0 && session.failureCount == 2 && session.player == nil)
        let (none, _) = self.session(["b.flac"], parts: parts)
        none.open(from: 0)
        #expect(none.isOver && none.status == .idle)
    }

    @Test("the server lost: the track waits where it was heard, and opens there again once the server answers twice")
    func serverLostAndBack() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        let lost = try #require(parts.output)
        lost.hear(at: 3)
        session.tick()
        lost.isServerLost = true
        lost.hear(at: 0)
        session.tick()
        #expect(session.status == .buffering && session.playhead == 3 && parts.probes.count == 1)
        parts.probes[0].consecutiveAnswers = 1
        session.tick()
        #expect(parts.outputs.count == 1, "one answer is not enough: a new server may still be loading")
        parts.probes[0].consecutiveAnswers = 2
        session.tick()
        #expect(lost.isStopped && parts.outputs.count == 2)
        #expect(parts.output?.seeks == [144_000] && session.status == .playing && parts.output?.isPaused == false)
    }

    @Test("paused when the server goes, paused when it is back; a seek meanwhile is where it opens")
    func serverLostWhilePaused() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        session.pause()
        parts.output?.isServerLost = true
        session.tick()
        #expect(session.status == .paused)
        session.seek(to: 6)
        #expect(session.playhead == 6)
        parts.probes.last?.consecutiveAnswers = 2
        session.tick()
        #expect(session.status == .paused && parts.output?.seeks == [288_000] && parts.output?.isPaused == true)
    }

    @Test("a server that answers but cannot play yet is looked for again")
    func serverBackButNotReady() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        parts.output?.isServerLost = true
        session.tick()
        parts.serverDown = true
        parts.probes[0].consecutiveAnswers = 2
        session.tick()
        #expect(parts.probes.count == 2 && session.status == .buffering)
        parts.serverDown = false
        parts.probes[1].consecutiveAnswers = 2
        session.tick()
        #expect(session.status == .playing && parts.outputs.count == 2)
    }

    @Test("a stream connects on its own thread, then is held until a second is decoded ahead")
    func streamConnectsAndBuffers() throws {
        let (session, parts) = session(["http://radio.invalid/a.mp3"])
        session.open(from: 0)
        #expect(session.status == .buffering && session.isConnecting && parts.outputs.isEmpty)
        session.tick()
        #expect(session.isConnecting, "nothing yet")
        let source = parts.connections[0].open()
        session.tick()
        let output = try #require(parts.output)
        #expect(session.status == .buffering && !session.isConnecting && output.isPaused)
        source.bufferedSeconds = 0.5
        session.tick()
        #expect(session.status == .buffering)
        source.bufferedSeconds = 1
        session.tick()
        #expect(session.status == .playing && !output.isPaused && session.bufferingCount == 0)
    }

    /// A streamed track opened and playing, two seconds decoded ahead.
    private func playingStream(_ url: String) throws -> (PlaySession, SteeredPlayerParts, SteeredSource, SteeredOutput) {
        let (session, parts) = session([url])
        session.open(from: 0)
        let source = parts.connections[0].open()
        source.bufferedSeconds = 2
        session.tick()
        session.tick()
        return (session, parts, source, try #require(parts.output))
    }

    @Test("a stream the network fell behind is held, counted and let go once refilled")
    func streamRunsLow() throws {
        let (session, parts, source, output) = try playingStream("http://radio.invalid/a.mp3")
        #expect(session.status == .playing)
        source.bufferedSeconds = 0.01
        parts.connections[0].steered.isPlayerWaiting = true
        session.tick()
        #expect(session.status == .buffering && output.isPaused && session.bufferingCount == 1)
        source.bufferedSeconds = 1.2
        session.tick()
        #expect(session.status == .playing && !output.isPaused)
        session.pause()
        source.bufferedSeconds = 0
        session.tick()
        #expect(session.status == .paused && session.bufferingCount == 1, "a paused stream is not held")
    }

    @Test("pause while connecting: the stream opens paused, at a seek asked for meanwhile")
    func pauseWhileConnecting() throws {
        let (session, parts) = session(["http://radio.invalid/a.mp3"])
        session.open(from: 0)
        session.pause()
        #expect(session.status == .paused)
        session.seek(to: 0)
        parts.connections[0].open()
        session.tick()
        #expect(session.status == .paused && parts.output?.isPaused == true && parts.output?.seeks == [0])
    }

    @Test("a stream that cannot connect is reported, counted and skipped")
    func streamFails() throws {
        let (session, parts) = session(["http://radio.invalid/a.mp3", "b.flac"])
        session.open(from: 0)
        parts.connections[0].outcome = .failure(AudioFileError(path: "http://radio.invalid/a.mp3", reason: "connection refused"))
        session.tick()
        #expect(session.index == 1 && session.status == .playing && session.failureCount == 1)
    }

    @Test("stop while connecting cancels the download; a stopped stream keeps its download for Play")
    func stopStream() throws {
        let (session, parts) = session(["http://radio.invalid/a.mp3"])
        session.open(from: 0)
        session.stop()
        #expect(session.status == .stopped && parts.connections[0].steered.isCancelled)
        session.play()
        parts.connections[1].open().bufferedSeconds = 2
        session.tick()
        session.tick()
        #expect(session.status == .playing)
        session.stop()
        #expect(!parts.connections[1].steered.isCancelled, "it goes on downloading for the overview and cache")
        session.play()
        #expect(parts.connections[2].steered === parts.connections[1].steered, "played again from what is there")
    }

    @Test("MPRIS Seek past the end is Next; SetPosition with a stale track id is ignored")
    func mediaRequests() throws {
        let (session, parts) = session(["a.flac", "b.flac"])
        session.open(from: 0)
        let id = try #require(session.track?.id)
        session.handle(.seek(by: 11_000_000))
        #expect(session.index == 1)
        session.handle(.setPosition(trackID: id, position: 2_000_000))
        #expect(parts.output?.seeks == [])
        session.handle(.setRate(0))
        #expect(session.status == .paused)
    }

    @Test("A-B loop: the source gets it in frames and the output plays from A; a and b at the playhead; A after B drops B; another track has none")
    func abLoop() throws {
        let (session, parts) = session(["a.flac", "b.flac"])
        session.open(from: 0)
        let output = try #require(parts.output)
        let source = try #require(session.source as? SteeredSource)
        output.hear(at: 3)
        #expect(session.setLoop(from: 2, to: 4))
        #expect(source.loop == ABLoop(start: 96_000, end: 192_000) && output.seeks.last == 96_000)
        #expect(session.loopPoints == (2, 4) && session.abLoop! == (2, 4))
        // Not within the track, or too short: nothing changes.
        #expect(!session.setLoop(from: 20, to: 30) && !session.setLoop(from: 5, to: 5.01))
        #expect(session.loopPoints == (2, 4))
        // a at 5 s, after B: B goes, and with it the loop (no jump).
        output.hear(at: 5)
        let seeks = output.seeks.count
        session.setLoopStart()
        #expect(session.loopPoints == (5, nil) && session.abLoop == nil && source.loop == nil && output.seeks.count == seeks)
        // b at 7 s: the loop from 5 s, played from there.
        output.hear(at: 7)
        session.setLoopEnd()
        #expect(session.loopPoints == (5, 7) && source.loop == ABLoop(start: 240_000, end: 336_000) && output.seeks.last == 240_000)
        session.clearLoop()
        #expect(session.loopPoints == (nil, nil) && source.loop == nil)
        // b alone loops from the start.
        output.hear(at: 1)
        session.setLoopEnd()
        #expect(session.loopPoints == (0, 1))
        session.next()
        #expect(session.index == 1 && session.loopPoints == (nil, nil) && (session.source as? SteeredSource)?.loop == nil)
    }

    @Test("hearing the drag: from pause the output plays grains at the pointer without Seeked; the release seeks once and pauses again")
    func scrubFromPause() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        session.pause()
        let output = try #require(parts.output)
        let seekCount = session.seekCount
        #expect(session.beginScrub(at: 3, now: 100))
        #expect(!output.isPaused && output.seeks == [144_000] && session.status == .paused)
        // 50 ms later the grain plays on; at 90 ms the pointer (6 s) is far from it: a jump.
        session.scrub(to: 6, now: 100.05)
        #expect(output.seeks == [144_000])
        session.scrub(to: 6, now: 100.09)
        #expect(output.seeks == [144_000, 288_000] && session.seekCount == seekCount)
        // Held still: silent after 0.3 s.
        session.scrub(to: 6, now: 100.4)
        #expect(output.isPaused)
        session.endScrub(at: 6.5, resume: false)
        #expect(output.seeks.last == 312_000 && session.seekCount == seekCount + 1 && output.isPaused && session.status == .paused)
        #expect(session.scrubbing == nil)
    }

    @Test("hearing the drag while playing: the release plays on from the drop; stopped, the drag is silent")
    func scrubWhilePlaying() throws {
        let (session, parts) = session(["a.flac"])
        session.open(from: 0)
        let output = try #require(parts.output)
        #expect(session.beginScrub(at: 8, now: 0))
        // A grain that ends the track while the button is held moves nothing on.
        output.isFinished = true
        session.tick()
        #expect(session.index == 0 && session.status == .playing)
        session.endScrub(at: 2, resume: true)
        #expect(output.seeks.last == 96_000 && !output.isPaused && session.status == .playing)
        session.stop()
        #expect(!session.beginScrub(at: 5, now: 1) && session.scrubbing == nil)
    }

    @Test("hearing the drag on a stream: grains where it has arrived, silence where it has not (no download sent after the pointer)")
    func scrubStream() throws {
        let (session, parts, _, output) = try playingStream("http://radio.invalid/a.flac")
        #expect(session.status == .playing && session.duration == 60)
        // The first 30 % of the bytes are here: up to 18 s of the 60.
        parts.connections[0].steered.snapshot = StreamSnapshot(total: 1000, held: ByteRanges([0 ..< 300]), isEndless: false,
                                                               isComplete: false, requestCount: 1)
        #expect(session.beginScrub(at: 10, now: 0))
        #expect(output.seeks == [480_000] && !output.isPaused)
        session.scrub(to: 40, now: 0.2)
        #expect(output.seeks == [480_000] && output.isPaused)
        session.scrub(to: 10.5, now: 0.4)
        #expect(output.seeks == [480_000, 504_000] && !output.isPaused)
        session.endScrub(at: 10.5, resume: true)
        #expect(session.status == .playing && !output.isPaused)
    }

    @Test("MPRIS GoTo plays the track its id names; an id of no track is ignored")
    func goTo() throws {
        let (session, _) = session(["a.flac", "b.flac", "c.flac"])
        session.open(from: 0)
        session.handle(.goTo(trackID: "/org/decibar/track/2"))
        #expect(session.index == 2 && session.status == .playing)
        session.handle(.goTo(trackID: "/org/decibar/track/7"))
        session.handle(.goTo(trackID: "/org/mpris/MediaPlayer2/TrackList/NoTrack"))
        #expect(session.index == 2)
    }

    @Test("play with only unreadable files says so and fails before any window opens (there is no display here)")
    func nothingReadable() throws {
        let folder = try TemporaryFolder()
        let files = [folder.path + "/missing.wav", folder.path]
        do {
            try PlayView(settings: .init(files: files, publishesMedia: false, display: DisplaySettings(), scrubber: ScrubberSettings())).run()
            Issue.record("play ran")
        } catch let failure as CommandFailure {
            // Without a display, a window would fail first, with its own message.
            #expect(failure.message.isEmpty && failure.status == 1, "\(failure.message)")
        }
    }
}
