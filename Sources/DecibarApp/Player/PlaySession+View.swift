import DecibarCore

/// The scrubber's zoom: which stretch of the track it shows. Kept on the session, so that `ctl
/// zoom`, the status and the window agree, with or without a window.
extension PlaySession {
    /// The stretch shown now: all of a track just opened; the zoom is kept while its length grows.
    var view: ScrubberZoom {
        syncView()
        return zoom.view
    }

    /// Zooms to `factor` (1 is the whole track) around the playhead, which goes to the middle.
    func zoom(to factor: Double) {
        syncView()
        zoom.view.zoom(to: factor, around: playhead, width: scrubberWidth)
        zoom.follows = true
    }

    /// Zooms by `ratio` around `time`, which stays where it is on the scrubber (the wheel).
    func zoom(by ratio: Double, around time: Double) {
        syncView()
        zoom.view.zoom(by: ratio, around: time, width: scrubberWidth)
    }

    /// Shows the stretch starting at `start` (the minimap); the view stops following the playhead
    /// until the next seek or zoom, so it can be looked at while the track plays on.
    func pan(to start: Double) {
        syncView()
        zoom.view.pan(to: start)
        zoom.follows = false
    }

    /// Keeps the playhead in sight while playing, as `mode` says.
    func followPlayhead(_ mode: ScrubberZoom.Follow) {
        syncView()
        guard zoom.follows, status == .playing else { return }
        zoom.view.follow(playhead, mode: mode)
    }

    private func syncView() {
        if zoom.track != index {
            zoom = (ScrubberZoom(duration: duration), index, true)
        } else if zoom.view.duration != duration {
            zoom.view.setDuration(duration)
        }
    }
}
