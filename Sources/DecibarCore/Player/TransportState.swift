/// What the player is doing with its track. Each state says what is open: only `playing`,
/// `paused` and `buffering` have a stream on the sound server.
public enum TransportState: Equatable, Sendable {
    /// Nothing opened yet.
    case empty
    /// A streamed track is opening on its own thread (connecting, then probing its format).
    case connecting(Connecting)
    case playing
    case paused
    /// A streamed track that means to play is held (its stream corked) until enough of it is
    /// decoded ahead: the network fell behind, or it has just opened.
    case buffering
    /// The sound server went away: where the track was (or where a seek since asked it to be),
    /// and whether it plays once the server is back.
    case serverLost(position: Double, resumesPlaying: Bool)
    /// The track stays on screen with the playhead at the start; no stream is open.
    case stopped
    /// Nothing could be played, or the list ended for a script (`--exit-at-end`).
    case over

    /// What a streamed track does once it is open.
    public struct Connecting: Equatable, Sendable {
        /// Plays once open (Pause while connecting clears it, Play sets it).
        public var autoplay: Bool
        /// Where to try next (+1 or -1) if it cannot be opened.
        public var direction: Int
        /// Where it goes once open (a seek while connecting, or the place before the server left).
        public var resumeAt: Double?

        public init(autoplay: Bool, direction: Int = 1, resumeAt: Double? = nil) {
            self.autoplay = autoplay
            self.direction = direction
            self.resumeAt = resumeAt
        }
    }

    /// As `ctl status`, MPRIS and the title say it.
    public var status: PlaybackStatus {
        switch self {
        case .empty, .over: .idle
        case .connecting(let connecting): connecting.autoplay ? .buffering : .paused
        case .playing: .playing
        case .paused: .paused
        case .buffering: .buffering
        case .serverLost(_, let resumesPlaying): resumesPlaying ? .buffering : .paused
        case .stopped: .stopped
        }
    }

    /// A stream is open on the sound server for this track.
    public var hasOutput: Bool {
        switch self {
        case .playing, .paused, .buffering: true
        default: false
        }
    }

    /// A track is open or shown (anything but empty and over).
    public var hasTrack: Bool {
        switch self {
        case .empty, .over: false
        default: true
        }
    }
}
