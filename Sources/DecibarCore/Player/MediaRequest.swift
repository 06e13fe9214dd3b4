/// What the desktop asks of a player (MPRIS methods and property writes), carried out on the
/// player's own thread in the order asked.
public enum MediaRequest: Sendable, Equatable {
    case raise
    case quit
    case play
    case pause
    case playPause
    case stop
    case next
    case previous
    /// Relative, in microseconds.
    case seek(by: Int64)
    /// Absolute, in microseconds; ignored unless `trackID` names the open track.
    case setPosition(trackID: String, position: Int64)
    case open(path: String)
    case setLoop(LoopMode)
    case setShuffle(Bool)
    /// Percent.
    case setVolume(Double)
    case setRate(Double)
    /// Plays the track of the list with this id (TrackList's GoTo); ignored unless it names one.
    case goTo(trackID: String)
}
