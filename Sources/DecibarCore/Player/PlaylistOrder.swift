/// The order a shuffled playlist plays in (MPRIS `Shuffle`, `player.shuffle`): the track playing
/// first, so it plays on, then every other track once, in random order. The list is reordered,
/// as mpv's `playlist-shuffle` does, and put back when shuffle is turned off.
public enum PlaylistOrder {
    /// A permutation of `0 ..< count` starting with `first` (any order when `first` is not in the list).
    public static func shuffled(count: Int, first: Int, using generator: inout some RandomNumberGenerator) -> [Int] {
        guard count > 0 else { return [] }
        var rest = (0 ..< count).filter { $0 != first }
        rest.shuffle(using: &generator)
        return (0 ..< count).contains(first) ? [first] + rest : rest
    }

    /// The list back in its own order: `order[i]` is where entry `i` of `shuffled` came from.
    public static func restored<Element>(_ shuffled: [Element], order: [Int]) -> [Element] {
        var original = shuffled
        for (position, source) in order.enumerated() where source < original.count && position < shuffled.count {
            original[source] = shuffled[position]
        }
        return original
    }
}
