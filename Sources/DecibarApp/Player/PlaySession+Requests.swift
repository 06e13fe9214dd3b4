import DecibarCore

extension PlaySession {
    /// Carries out what the desktop asked (MPRIS) that is the transport's: raise, quit and open
    /// are for the owner of the window and the list.
    func handle(_ request: MediaRequest) {
        switch request {
        case .play: play()
        case .pause: pause()
        case .playPause: togglePause()
        case .stop: stop()
        case .next: next()
        case .previous: previous()
        case .seek(let offset):
            guard hasTrack else { return }
            let target = playhead + Double(offset) / 1_000_000
            // Past the end is the next track; before the start is the start (the specification's rules).
            if duration > 0 && target > duration { next() } else { seek(to: max(0, target)) }
        case .setPosition(let trackID, let position):
            // A stale track id or a position outside the track is ignored.
            let seconds = Double(position) / 1_000_000
            guard let track, track.id == trackID, position >= 0, seconds <= duration else { return }
            seek(to: seconds)
        case .setLoop(let mode): loop = mode
        case .setShuffle(let on): setShuffle(on)
        case .setVolume(let percent): setVolume(percent)
        case .setRate(let rate):
            // A rate of 0 means pause (the specification's rule); others are clamped to 0.25...4.
            if rate == 0 { pause() } else if rate > 0 { setRateAndPitch(rateAndPitch.with(rate: rate)) }
        case .goTo(let trackID):
            guard let index = MediaTrack.index(ofID: trackID), files.indices.contains(index) else { return }
            open(from: index, tries: 1)
        case .raise, .quit, .open: break
        }
    }
}
