/// Where the player goes in its list when asked for the next or previous track, or when a track
/// ends: pure decisions over the list's length, the loop mode and the current track, so the
/// transport's rules are tested without a sound server.
public enum PlaylistMove: Equatable, Sendable {
    /// Open the first playable file from `index` on, trying in `direction` (+1 or -1).
    case open(from: Int, direction: Int)
    /// Play the current track again from its start.
    case replay
    /// Back to the start of the current track (previous on the first one).
    case seekToStart
    /// Past the last track: the window shows it stopped, or (for scripts) the player ends.
    case endOfList

    /// `n`, Next, `ctl next`.
    public static func next(from index: Int, count: Int, loop: LoopMode) -> PlaylistMove {
        index + 1 >= count && loop != .playlist ? .endOfList : .open(from: index + 1, direction: 1)
    }

    /// `p`, Previous, `ctl previous`: on the first track (without a looped list), its start.
    public static func previous(from index: Int, count: Int, loop: LoopMode) -> PlaylistMove {
        index <= 0 && loop != .playlist ? .seekToStart : .open(from: index - 1, direction: -1)
    }

    /// At the end of a track.
    public static func afterTrack(_ index: Int, count: Int, loop: LoopMode) -> PlaylistMove {
        switch loop {
        case .track: .replay
        case .playlist: .open(from: index + 1, direction: 1)
        case .none: index + 1 < count ? .open(from: index + 1, direction: 1) : .endOfList
        }
    }

    /// The files to try, in order, when opening from `start` (one that cannot be played is skipped):
    /// at most `tries` of them (all by default), wrapping around only in a looped list.
    public static func candidates(from start: Int, direction: Int, count: Int, loop: LoopMode, tries: Int? = nil) -> [Int] {
        var found: [Int] = []
        var candidate = start
        for _ in 0 ..< max(0, tries ?? count) {
            if candidate >= count || candidate < 0 {
                guard loop == .playlist, count > 0 else { break }
                candidate = (candidate % count + count) % count
            }
            found.append(candidate)
            candidate += direction
        }
        return found
    }

    /// Whether next or previous leads to another track (MPRIS CanGoNext, CanGoPrevious).
    public static func canGoNext(from index: Int, count: Int, loop: LoopMode) -> Bool {
        loop == .playlist ? count > 0 : index + 1 < count
    }

    public static func canGoPrevious(from index: Int, count: Int, loop: LoopMode) -> Bool {
        loop == .playlist ? count > 0 : index > 0
    }
}
