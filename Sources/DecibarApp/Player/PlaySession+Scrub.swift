import DecibarCore

/// Hearing what the scrubber is dragged over (`player.scrub_audio`): while the button is held the
/// output plays grains at the pointer (`ScrubAudio` says when to jump), even from pause; the
/// release seeks to the drop point as any click does, and the track plays on or stays paused as it
/// was. The jumps are the output's alone: no Seeked signal, no picture seek (the drag's preview
/// shows the picture), and the end of the track does not move the list on while the button is held.
/// A streamed track is heard over the parts already downloaded; elsewhere the drag is silent (a
/// grain there would send the download after every place the pointer passes).
extension PlaySession {
    /// Starts hearing the scrubber at `time`; false when there is nothing to hear (stopped, a
    /// stream still connecting or buffering, a radio): the drag is then silent.
    @discardableResult
    func beginScrub(at time: Double, now: Double) -> Bool {
        guard let player, !isLive, status == .playing || status == .paused else { return false }
        scrubbing = ScrubAudio(latency: player.latency)
        if status == .paused { player.play() }
        scrub(to: time, now: now)
        return true
    }

    /// The pointer is at `time` (call every frame while the button is held).
    func scrub(to time: Double, now: Double) {
        guard var scrubbing, let player else { return }
        let pointer = max(0, min(duration, time))
        guard isDownloaded(at: pointer) else {
            if !player.isPaused { player.pause() }
            return
        }
        switch scrubbing.update(pointer: pointer, heard: playhead, now: now) {
        case .none: break
        case .jump(let target):
            discardHeard()
            player.seek(toFrame: Int64((max(0, min(duration, target)) * Double(player.sampleRate)).rounded()))
            if player.isPaused { player.play() }
        case .silence: player.pause()
        }
        self.scrubbing = scrubbing
    }

    /// Whether the audio at `time` has arrived (always, for a file). A stream's bytes stand in for
    /// its time, as its scrubber's shading does.
    private func isDownloaded(at time: Double) -> Bool {
        guard download != nil, let stream = streamSnapshot, !stream.isComplete else { return true }
        guard duration > 0 else { return false }
        let fraction = time / duration
        return stream.downloadedFractions.contains { $0.contains(fraction) }
    }

    /// The button was released at `time`: the one seek of the drag, then playing on or paused as before.
    func endScrub(at time: Double, resume: Bool) {
        guard scrubbing != nil else { return }
        scrubbing = nil
        seek(to: time)
        if resume {
            player?.play()
        } else {
            player?.pause()
        }
    }
}
