import Testing
@testable import DecibarCore

/// The transport's states and transitions, and exactly what each asks of the player's parts.
@Suite("Transport")
struct TransportTests {
    /// A transport in `state` on track `index` of `count`, reached the way a player gets there.
    private func transport(_ state: TransportState, index: Int = 0, count: Int = 3, loop: LoopMode = .none,
                           exitsAtEnd: Bool = false) -> Transport {
        var transport = Transport(trackCount: count, loop: loop, exitsAtEnd: exitsAtEnd)
        _ = transport.handle(.opened(index: index, streamed: false, autoplay: true, resumeAt: nil))
        switch state {
        case .playing: break
        case .paused: _ = transport.handle(.pause)
        case .stopped: _ = transport.handle(.stop)
        case .buffering:
            _ = transport.handle(.opened(index: index, streamed: true, autoplay: true, resumeAt: nil))
        case .serverLost(let position, let resumes):
            if !resumes { _ = transport.handle(.pause) }
            _ = transport.handle(.serverLost(position: position))
        case .connecting(let connecting): _ = transport.handle(.connecting(index: index, connecting))
        case .empty, .over: Issue.record("not reached this way")
        }
        #expect(transport.state == state)
        return transport
    }

    @Test("a file opens playing (uncorked), paused, or at a place; a stream opens held")
    func opened() {
        var transport = Transport(trackCount: 2, loop: .none)
        #expect(transport.state == .empty && transport.state.status == .idle)
        #expect(transport.handle(.opened(index: 1, streamed: false, autoplay: true, resumeAt: nil)) == [.resumeOutput])
        #expect(transport.state == .playing && transport.index == 1)
        #expect(transport.handle(.opened(index: 0, streamed: false, autoplay: false, resumeAt: 4)) == [.seekOutput(to: 4)])
        #expect(transport.state == .paused)
        #expect(transport.handle(.opened(index: 0, streamed: true, autoplay: true, resumeAt: nil)) == [])
        #expect(transport.state == .buffering && transport.state.status == .buffering)
    }

    @Test("play, pause and toggle in each state", arguments: [
        (TransportState.playing, Transport.Event.pause, TransportState.paused, [Transport.Effect.pauseOutput]),
        (.paused, .play, .playing, [.resumeOutput]),
        (.buffering, .togglePause, .paused, [.pauseOutput]),
        (.paused, .togglePause, .playing, [.resumeOutput]),
        (.playing, .play, .playing, []),
        (.stopped, .play, .stopped, [.reopen(autoplay: true, resumeAt: nil)]),
        (.stopped, .pause, .stopped, []),
        (.connecting(.init(autoplay: true)), .pause, .connecting(.init(autoplay: false)), []),
        (.connecting(.init(autoplay: false)), .play, .connecting(.init(autoplay: true)), []),
        (.serverLost(position: 2, resumesPlaying: true), .togglePause, .serverLost(position: 2, resumesPlaying: false), []),
    ])
    func playAndPause(from: TransportState, event: Transport.Event, to: TransportState, effects: [Transport.Effect]) {
        var transport = transport(from)
        #expect(transport.handle(event) == effects)
        #expect(transport.state == to)
    }

    @Test("seek: an open track moves, a stopped one opens paused there, a waiting one remembers", arguments: [
        (TransportState.playing, TransportState.playing, [Transport.Effect.seekOutput(to: 5)]),
        (.paused, .paused, [.seekOutput(to: 5)]),
        (.stopped, .stopped, [.reopen(autoplay: false, resumeAt: 5)]),
        (.connecting(.init(autoplay: true)), .connecting(.init(autoplay: true, resumeAt: 5)), []),
        (.serverLost(position: 2, resumesPlaying: false), .serverLost(position: 5, resumesPlaying: false), []),
    ])
    func seek(from: TransportState, to: TransportState, effects: [Transport.Effect]) {
        var transport = transport(from)
        #expect(transport.handle(.seek(to: 5)) == effects)
        #expect(transport.state == to)
    }

    @Test("stop releases and rewinds anything open; stopped stays stopped")
    func stop() {
        for state in [TransportState.playing, .paused, .buffering, .connecting(.init(autoplay: true)),
                      .serverLost(position: 1, resumesPlaying: true)] {
            var transport = transport(state)
            #expect(transport.handle(.stop) == [.release, .rewind], "\(state)")
            #expect(transport.state == .stopped && transport.state.status == .stopped)
        }
        var stopped = transport(.stopped)
        #expect(stopped.handle(.stop) == [])
    }

    @Test("the end of a track: again, the next, or the end of the list (shown stopped, or over for scripts)")
    func trackEnded() {
        var again = transport(.playing, loop: .track)
        #expect(again.handle(.trackEnded) == [.seekOutput(to: 0), .resumeOutput] && again.state == .playing)
        var next = transport(.playing, index: 1)
        #expect(next.handle(.trackEnded) == [.open(from: 2, direction: 1, autoplay: true, tries: nil)])
        var wrap = transport(.playing, index: 2, loop: .playlist)
        #expect(wrap.handle(.trackEnded) == [.open(from: 3, direction: 1, autoplay: true, tries: nil)])
        var last = transport(.playing, index: 2)
        #expect(last.handle(.trackEnded) == [.release, .rewind] && last.state == .stopped)
        var script = transport(.playing, index: 2, exitsAtEnd: true)
        #expect(script.handle(.trackEnded) == [.close] && script.state == .over && script.state.status == .idle)
        var paused = transport(.stopped)
        #expect(paused.handle(.trackEnded) == [], "a stopped track has no end to reach")
    }

    @Test("next and previous, at the edges of the list")
    func nextAndPrevious() {
        var first = transport(.paused, index: 0)
        #expect(first.handle(.previous) == [.seekOutput(to: 0)] && first.state == .paused)
        var looped = transport(.playing, index: 0, loop: .playlist)
        #expect(looped.handle(.previous) == [.open(from: -1, direction: -1, autoplay: true, tries: nil)])
        var last = transport(.playing, index: 2)
        #expect(last.handle(.next) == [.release, .rewind] && last.state == .stopped)
        var middle = transport(.paused, index: 1)
        #expect(middle.handle(.next) == [.open(from: 2, direction: 1, autoplay: true, tries: nil)])
    }

    @Test("nothing playable: the last good track shown stopped, or over")
    func nothingPlayable() {
        var shown = Transport(trackCount: 3, loop: .none)
        #expect(shown.handle(.nothingPlayable(lastPlayable: 1)) == [.showStopped(index: 1)])
        #expect(shown.state == .stopped && shown.index == 1)
        var none = Transport(trackCount: 3, loop: .none)
        #expect(none.handle(.nothingPlayable(lastPlayable: nil)) == [] && none.state == .over)
        var script = Transport(trackCount: 3, loop: .none, exitsAtEnd: true)
        #expect(script.handle(.nothingPlayable(lastPlayable: 1)) == [] && script.state == .over)
    }

    @Test("a stream: held when it runs low while playing, let go when refilled; paused ones are left alone")
    func buffering() {
        var transport = transport(.playing)
        #expect(transport.handle(.ranLow) == [.pauseOutput] && transport.state == .buffering)
        #expect(transport.handle(.ranLow) == [])
        #expect(transport.handle(.refilled) == [.resumeOutput] && transport.state == .playing)
        var paused = self.transport(.paused)
        #expect(paused.handle(.ranLow) == [] && paused.handle(.refilled) == [] && paused.state == .paused)
    }

    @Test("a stream that cannot be opened: on to the next in its direction, once around at most")
    func connectionFailed() {
        var transport = transport(.connecting(.init(autoplay: false, direction: -1)), index: 2)
        #expect(transport.handle(.openFailed) == [.open(from: 1, direction: -1, autoplay: false, tries: 2)])
        var stopped = self.transport(.stopped)
        #expect(stopped.handle(.openFailed) == [] && stopped.state == .stopped)
    }

    @Test("a connecting stream opens as it was last asked: paused, and where a seek went")
    func openedAfterConnecting() {
        var transport = transport(.connecting(.init(autoplay: true)))
        _ = transport.handle(.pause)
        _ = transport.handle(.seek(to: 30))
        #expect(transport.handle(.opened(index: 0, streamed: true, autoplay: true, resumeAt: nil)) == [.seekOutput(to: 30)])
        #expect(transport.state == .paused)
    }

    @Test("the server lost and back: look for it, then open the track again where it was, as it was")
    func serverLostAndBack() {
        var transport = transport(.buffering)
        #expect(transport.handle(.serverLost(position: 12)) == [.lookForServer])
        #expect(transport.state == .serverLost(position: 12, resumesPlaying: true) && !transport.state.hasOutput)
        #expect(transport.handle(.serverLost(position: 1)) == [], "lost once")
        #expect(transport.handle(.serverBack) == [.release, .reopen(autoplay: true, resumeAt: 12)])
        #expect(transport.handle(.openFailed) == [.lookForServer], "not ready yet: look again")
        #expect(transport.handle(.opened(index: 0, streamed: false, autoplay: true, resumeAt: 12)) == [.seekOutput(to: 12), .resumeOutput])
        #expect(transport.state == .playing)
        var atStart = self.transport(.serverLost(position: 0, resumesPlaying: false))
        #expect(atStart.handle(.serverBack) == [.release, .reopen(autoplay: false, resumeAt: nil)])
        var stopped = self.transport(.stopped)
        #expect(stopped.handle(.serverLost(position: 3)) == [] && stopped.handle(.serverBack) == [])
    }
}
