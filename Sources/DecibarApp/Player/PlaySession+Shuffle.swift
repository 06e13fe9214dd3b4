import DecibarCore

/// Shuffle (MPRIS `Shuffle`, `player.shuffle`, `--shuffle`): the list is reordered with the track
/// playing first and the rest at random, so next and previous, the end of the list and a playlist
/// loop all follow the new order; turned off, the list is as it was given.
extension PlaySession {
    var shuffle: Bool { shuffleOrder != nil }

    func setShuffle(_ on: Bool) {
        var generator = SystemRandomNumberGenerator()
        setShuffle(on, using: &generator)
    }

    func setShuffle(_ on: Bool, using generator: inout some RandomNumberGenerator) {
        guard on != shuffle else { return }
        if on {
            // Before anything is open the first track is drawn too.
            let order = PlaylistOrder.shuffled(count: files.count, first: index, using: &generator)
            shuffleOrder = order
            reorder(order.map { files[$0] }, currentAt: index >= 0 ? 0 : -1)
        } else if let order = shuffleOrder {
            let position = index >= 0 && index < order.count ? order[index] : -1
            shuffleOrder = nil
            reorder(PlaylistOrder.restored(files, order: order), currentAt: position)
        }
        announce("shuffle: \(on ? "on" : "off")")
    }
}
