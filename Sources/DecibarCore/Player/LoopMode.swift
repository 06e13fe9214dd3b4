/// What the player does at the end of a track: stop after the last one, play the track again,
/// or start the list again. `l` cycles through them in this order.
public enum LoopMode: String, CaseIterable, Sendable {
    case none
    case track
    case playlist

    /// The next mode in `l`'s cycle.
    public var next: LoopMode {
        switch self {
        case .none: .track
        case .track: .playlist
        case .playlist: .none
        }
    }

    /// MPRIS's LoopStatus spelling (None, Track, Playlist).
    public var mprisName: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public init?(mprisName: String) {
        self.init(rawValue: mprisName.lowercased())
    }
}
