import DecibarCore

extension PlaySession {
    func play() { apply(.play) }

    func pause() { apply(.pause) }

    func togglePause() { apply(.togglePause) }

    /// Playback stops and the playhead returns to the start; the track stays on screen, and no
    /// stream stays open on the sound server (nothing more is written to it).
    func stop() { apply(.stop) }

    func seek(to seconds: Double) {
        // A radio plays what is on air now.
        if isLive { return }
        // The view follows the playhead again after a look elsewhere on the minimap.
        zoom.follows = true
        apply(.seek(to: max(0, min(duration, seconds))))
    }

    func next() { apply(.next) }

    func previous() { apply(.previous) }

    var canGoNext: Bool { PlaylistMove.canGoNext(from: index, count: files.count, loop: loop) }
    var canGoPrevious: Bool { PlaylistMove.canGoPrevious(from: index, count: files.count, loop: loop) }
}
