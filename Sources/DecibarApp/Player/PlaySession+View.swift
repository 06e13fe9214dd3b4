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

    /// The finer overview of the stretch shown when a column there is narrower than a pair of the
    /// stored overview (asked for on a thread of its own, then kept while the view stays within
    /// it); nil while it is coarse enough, or until the finer one is decoded. Files only.
    func finerOverview(columnCount: Int) -> (peaks: Peaks, start: Double)? {
        let view = self.view
        guard index >= 0, columnCount > 0, !view.isWhole, let stored = peaks?.snapshot.peaks,
              case .file = MediaLocation(files[index]) else {
            dropRangeOverview()
            return nil
        }
        let columnFrames = view.span / Double(columnCount) * Double(stored.sampleRate)
        guard columnFrames < Double(stored.samplesPerPixel) else {
            dropRangeOverview()
            return nil
        }
        // Sixteen pairs a column, so its edges fall within a sixteenth of it whatever the view's
        // start; half a view more on each side, so a page turn needs no new decode.
        let wanted = max(1, Int(columnFrames / 16))
        if let rangeOverview, rangeOverview.path == files[index], rangeOverview.covers(from: view.start, to: min(view.end, duration), samplesPerPixel: wanted) {
            return rangeOverview.peaks.map { ($0, rangeOverview.start) }
        }
        dropRangeOverview()
        rangeOverview = RangeOverview(path: files[index], from: max(0, view.start - view.span / 2),
                                      to: min(duration, view.end + view.span / 2), samplesPerPixel: wanted)
        return nil
    }

    func dropRangeOverview() {
        rangeOverview?.cancel()
        rangeOverview = nil
    }

    private func syncView() {
        if zoom.track != index {
            zoom = (ScrubberZoom(duration: duration), index, true)
        } else if zoom.view.duration != duration {
            zoom.view.setDuration(duration)
        }
    }
}
