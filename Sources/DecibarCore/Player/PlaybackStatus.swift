/// Where the player is: nothing open, playing, paused (the position holds), stopped (the
/// playhead is back at the start and nothing is sent to the sound server), or buffering (a streamed
/// track meant to play, waiting for the network: connecting, or held until enough has arrived).
public enum PlaybackStatus: String, Sendable, Equatable {
    case idle
    case playing
    case paused
    case stopped
    case buffering

    /// MPRIS's PlaybackStatus: an idle player is Stopped. MPRIS has no buffering status; a track
    /// waiting for the network is Playing (it plays as soon as it can, and Pause holds it).
    public var mprisName: String {
        switch self {
        case .playing, .buffering: "Playing"
        case .paused: "Paused"
        case .idle, .stopped: "Stopped"
        }
    }
}
