import DecibarCore
import Testing

@Suite("The scrubber's zoom: which stretch of the file it shows")
struct ScrubberZoomTests {
    @Test("zoom 8 at 60 s of a 120 s file shows 52.5 to 67.5 s; near the start it stays inside the file; at most 10 ms a pixel")
    func zoomAroundPlayhead() {
        var zoom = ScrubberZoom(duration: 120)
        #expect(zoom.start == 0 && zoom.span == 120 && zoom.factor == 1 && zoom.isWhole)
        zoom.zoom(to: 8, around: 60, width: 1000)
        #expect(zoom.start == 52.5 && zoom.end == 67.5 && zoom.factor == 8)
        zoom.zoom(to: 8, around: 2, width: 1000)
        #expect(zoom.start == 0 && zoom.end == 15)
        var hour = ScrubberZoom(duration: 3600)
        #expect(hour.maximumFactor(width: 1000) == 360)
        hour.zoom(to: 1000, around: 1800, width: 1000)
        #expect(hour.factor == 360 && hour.span == 10 && hour.start == 1795)
        hour.zoom(to: 0.5, around: 1800, width: 1000)
        #expect(hour.isWhole && hour.start == 0)
    }

    @Test("a wheel step keeps the time under the pointer where it was")
    func wheel() {
        var zoom = ScrubberZoom(duration: 120)
        // 30 s is a quarter of the way across; zoomed twice, it still is.
        zoom.zoom(by: 2, around: 30, width: 1000)
        #expect(zoom.span == 60 && zoom.start == 15 && zoom.fraction(of: 30) == 0.25)
        zoom.zoom(by: 0.5, around: 30, width: 1000)
        #expect(zoom.isWhole && zoom.start == 0)
    }

    @Test("the wheel: two steps double the zoom, two back halve it; a wild turn is bounded")
    func wheelRatio() {
        #expect(ScrubberZoom.ratio(wheelSteps: 2) == 2 && ScrubberZoom.ratio(wheelSteps: -2) == 0.5 && ScrubberZoom.ratio(wheelSteps: 0) == 1)
        #expect(ScrubberZoom.ratio(wheelSteps: 1e9) == 1024 && ScrubberZoom.ratio(wheelSteps: .nan) == 1)
    }

    @Test("following the playhead: a page turn when it leaves the view, or the view sliding with it; panning stays inside the file")
    func follow() {
        var zoom = ScrubberZoom(duration: 120)
        zoom.follow(100, mode: .page)
        #expect(zoom.start == 0 && zoom.isWhole)
        zoom.zoom(to: 8, around: 60, width: 1000)
        zoom.follow(67, mode: .page)
        #expect(zoom.start == 52.5)
        zoom.follow(67.5, mode: .page)
        #expect(zoom.start == 67.5 && zoom.end == 82.5)
        zoom.follow(118, mode: .page)
        #expect(zoom.start == 105)
        zoom.follow(100, mode: .smooth)
        #expect(zoom.start == 92.5)
        zoom.pan(to: 200)
        #expect(zoom.start == 105)
        zoom.pan(to: -3)
        #expect(zoom.start == 0)
        // A stream whose length grows keeps its zoom.
        zoom.setDuration(240)
        #expect(zoom.factor == 8 && zoom.span == 30 && zoom.start == 0)
    }
}
