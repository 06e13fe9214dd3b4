import DecibarCore

/// The player's commands, whether `ctl` sent them or a key ran them: one meaning for both.
extension PlaySession {
    /// Carries out a command of the player's; false for one that is not.
    func perform(_ command: ControlCommand) throws(ControlFailure) -> Bool {
        switch command {
        case .play: play()
        case .pause: pause()
        case .cyclePause: togglePause()
        // Playback stops and the playhead returns to the start; the playlist and the window stay.
        case .stop: stop()
        case .seek(let seconds, let relative): seek(to: relative ? playhead + seconds : seconds)
        case .next: next()
        case .previous: previous()
        case .chapter(let forward):
            guard !chapters.isEmpty else { throw ControlFailure(.commandFailed, "chapter: this track has no chapters") }
            guard seekChapter(forward: forward) else { throw ControlFailure(.commandFailed, "chapter: this is the last chapter") }
        case .zoom(let factor):
            try checkZoomable()
            zoom(to: factor)
        case .zoomStep(let inward):
            try checkZoomable()
            zoom(to: view.factor * (inward ? 2 : 0.5))
        case .abLoop(let start, let end):
            try checkLoopable()
            guard setLoop(from: start, to: end) else {
                throw ControlFailure(.invalidParameter, "ab_loop: the loop must start within the track (\(TimeLabel.text(seconds: duration)) long)")
            }
        case .abLoopMark(let start):
            try checkLoopable()
            if start { setLoopStart() } else { setLoopEnd() }
        case .abLoopOff: clearLoop()
        case .volume(let change): setVolume(PlayerVolume.clamped(change.applied(to: volume, step: PlayerVolume.step)))
        case .rate(let change): setRateAndPitch(rateAndPitch.with(rate: change.applied(to: rateAndPitch.rate, step: RateAndPitch.rateStep)))
        case .pitch(let change): setRateAndPitch(rateAndPitch.with(pitch: change.applied(to: rateAndPitch.pitch, step: RateAndPitch.pitchStep)))
        case .normalSpeed: setRateAndPitch(.normal)
        default: return false
        }
        return true
    }

    private func checkZoomable() throws(ControlFailure) {
        guard hasTrack, duration > 0, !isLive else { throw ControlFailure(.commandFailed, "zoom: no track with a length is open") }
    }

    private func checkLoopable() throws(ControlFailure) {
        guard hasTrack, !isLive else { throw ControlFailure(.commandFailed, "ab_loop: no track with a length is open") }
    }
}
