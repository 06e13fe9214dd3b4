/// The player's transport as pure decisions: given its state and what happened (a key, `ctl`,
/// MPRIS, or news from the output, the network or the sound server), the next state and what the
/// player must do to its parts. It opens nothing itself, so every transition is tested without
/// a sound server; `PlaySession` carries the effects out.
public struct Transport: Equatable, Sendable {
    public private(set) var state: TransportState = .empty
    /// The track open or shown (-1 before the first).
    public private(set) var index = -1
    /// How many tracks the list has.
    public var trackCount: Int
    public var loop: LoopMode
    /// At the end of the list (without a loop) the player is over, instead of showing the last
    /// track stopped: for scripts.
    public let exitsAtEnd: Bool

    public init(trackCount: Int, loop: LoopMode, exitsAtEnd: Bool = false) {
        self.trackCount = trackCount
        self.loop = loop
        self.exitsAtEnd = exitsAtEnd
    }

    /// The track open stays open, at `position` of a reordered list (shuffle turned on or off).
    public mutating func renumber(to position: Int) {
        guard index >= 0, (0 ..< trackCount).contains(position) else { return }
        index = position
    }

    public enum Event: Equatable, Sendable {
        // Asked for (keys, ctl, MPRIS). A seek's target is already within the track.
        case play, pause, togglePause, stop, next, previous
        case seek(to: Double)
        // Told by the parts.
        /// A streamed track started opening.
        case connecting(index: Int, TransportState.Connecting)
        /// A track's stream is open (corked). `autoplay` and `resumeAt` are the open's own, unless
        /// it was connecting (whose own may have changed since).
        case opened(index: Int, streamed: Bool, autoplay: Bool, resumeAt: Double?)
        /// A streamed track could not be opened, or a track to open again could not be.
        case openFailed
        /// No file from where the player looked on could be opened.
        case nothingPlayable(lastPlayable: Int?)
        /// Less than a moment of a stream is decoded ahead, and the network is behind.
        case ranLow
        /// Enough of a held stream is decoded ahead.
        case refilled
        case trackEnded
        /// The stream's server went away; `position` is where the track was last heard.
        case serverLost(position: Double)
        /// The server answers again.
        case serverBack
    }

    public enum Effect: Equatable, Sendable {
        case resumeOutput
        case pauseOutput
        case seekOutput(to: Double)
        /// Close the stream, decoder and download; the track and its overview stay on screen.
        case release
        /// Close everything, the overview and picture too.
        case close
        /// The playhead jumps back to the start (the picture too, and MPRIS hears of it).
        case rewind
        /// Close what is open and open the first playable track from `from` on (at most `tries`,
        /// all by default).
        case open(from: Int, direction: Int, autoplay: Bool, tries: Int?)
        /// Open the current track again, keeping its overview.
        case reopen(autoplay: Bool, resumeAt: Double?)
        /// Show track `index` stopped (open it only to show it).
        case showStopped(index: Int)
        /// Look for the sound server (again).
        case lookForServer
    }

    /// Moves to the next state; returns what the player must do, in order.
    public mutating func handle(_ event: Event) -> [Effect] {
        switch event {
        case .play: return play()
        case .pause: return pause()
        case .togglePause:
            switch state.status {
            case .playing, .buffering: return pause()
            default: return play()
            }
        case .stop:
            guard state.hasTrack, state != .stopped else { return [] }
            state = .stopped
            return [.release, .rewind]
        case .seek(let target): return seek(to: target)
        case .next: return go(PlaylistMove.next(from: index, count: trackCount, loop: loop))
        case .previous: return go(PlaylistMove.previous(from: index, count: trackCount, loop: loop))
        case .trackEnded:
            guard state.hasOutput else { return [] }
            return go(PlaylistMove.afterTrack(index, count: trackCount, loop: loop))
        case .connecting(let index, let connecting):
            self.index = index
            state = .connecting(connecting)
            return []
        case .opened(let index, let streamed, var autoplay, var resumeAt):
            self.index = index
            if case .connecting(let connecting) = state {
                autoplay = connecting.autoplay
                resumeAt = connecting.resumeAt
            }
            var effects: [Effect] = resumeAt.map { [.seekOutput(to: $0)] } ?? []
            if !autoplay {
                state = .paused
            } else if streamed {
                // It plays once enough is decoded ahead (`refilled`).
                state = .buffering
            } else {
                state = .playing
                effects.append(.resumeOutput)
            }
            return effects
        case .openFailed:
            switch state {
            case .connecting(let connecting):
                // Like a file that cannot be opened: on to the next one, once around the list at most.
                return [.open(from: index + connecting.direction, direction: connecting.direction,
                              autoplay: connecting.autoplay, tries: max(0, trackCount - 1))]
            case .serverLost: return [.lookForServer]
            default: return []
            }
        case .nothingPlayable(let last):
            if let last, !exitsAtEnd {
                index = last
                state = .stopped
                return [.showStopped(index: last)]
            }
            state = .over
            return []
        case .ranLow:
            guard state == .playing else { return [] }
            state = .buffering
            return [.pauseOutput]
        case .refilled:
            guard state == .buffering else { return [] }
            state = .playing
            return [.resumeOutput]
        case .serverLost(let position):
            guard state.hasOutput else { return [] }
            state = .serverLost(position: position, resumesPlaying: state != .paused)
            return [.lookForServer]
        case .serverBack:
            guard case .serverLost(let position, let resumesPlaying) = state else { return [] }
            return [.release, .reopen(autoplay: resumesPlaying, resumeAt: position > 0 ? position : nil)]
        }
    }

    private mutating func play() -> [Effect] {
        switch state {
        case .paused:
            state = .playing
            return [.resumeOutput]
        case .stopped: return [.reopen(autoplay: true, resumeAt: nil)]
        case .connecting(var connecting):
            connecting.autoplay = true
            state = .connecting(connecting)
        case .serverLost(let position, _): state = .serverLost(position: position, resumesPlaying: true)
        case .empty, .over, .playing, .buffering: break
        }
        return []
    }

    private mutating func pause() -> [Effect] {
        switch state {
        case .playing, .buffering:
            state = .paused
            return [.pauseOutput]
        case .connecting(var connecting):
            connecting.autoplay = false
            state = .connecting(connecting)
        case .serverLost(let position, _): state = .serverLost(position: position, resumesPlaying: false)
        case .empty, .over, .paused, .stopped: break
        }
        return []
    }

    private mutating func seek(to target: Double) -> [Effect] {
        switch state {
        case .playing, .paused, .buffering: return [.seekOutput(to: target)]
        // A stopped track opens again, paused where it was asked to be.
        case .stopped: return [.reopen(autoplay: false, resumeAt: target)]
        case .connecting(var connecting):
            connecting.resumeAt = target
            state = .connecting(connecting)
        case .serverLost(_, let resumesPlaying): state = .serverLost(position: target, resumesPlaying: resumesPlaying)
        case .empty, .over: break
        }
        return []
    }

    /// Carries out a move in the list.
    private mutating func go(_ move: PlaylistMove) -> [Effect] {
        switch move {
        case .open(let start, let direction):
            return [.open(from: start, direction: direction, autoplay: true, tries: nil)]
        case .replay:
            let effects = seek(to: 0)
            guard state.hasOutput else { return effects }
            state = .playing
            return effects + [.resumeOutput]
        case .seekToStart: return seek(to: 0)
        case .endOfList:
            if exitsAtEnd {
                state = .over
                return [.close]
            }
            return handle(.stop)
        }
    }
}
