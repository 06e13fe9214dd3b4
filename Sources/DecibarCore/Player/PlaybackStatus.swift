/// Where the player is: nothing open, playing, paused (the position holds), or stopped (the
/// playhead is back at the start and nothing is sent to the sound server).
public enum PlaybackStatus: String, Sendable, Equatable {
    case idle
    case playing
    case paused
    case stopped

    /// MPRIS's PlaybackStatus: an idle player is Stopped.
    public var mprisName: String {
        switch self {
        case .playing: "Playing"
        case .paused: "Paused"
        case .idle, .stopped: "Stopped"
        }
    }
}
