import DecibarCore
import Testing

@Suite("Scrubber geometry, scale and labels")
struct ScrubberTests {
    @Test("time and pixel map onto each other at both ends and in between")
    func timePixel() {
        let geometry = ScrubberGeometry(left: 20, width: 600, duration: 180)
        #expect(geometry.x(forTime: 0) == 20)
        #expect(geometry.x(forTime: 180) == 620)
        #expect(geometry.x(forTime: 45) == 170)
        #expect(geometry.time(forX: 20) == 0)
        #expect(geometry.time(forX: 620) == 180)
        #expect(geometry.time(forX: 320) == 90)
        // Past the edges (a drag outside the window) pins to the track.
        #expect(geometry.time(forX: -500) == 0)
        #expect(geometry.time(forX: 5000) == 180)
        #expect(geometry.x(forTime: 999) == 620)
    }

    @Test("zoomed, the track maps the stretch shown: 52.5 to 67.5 s of 120 s across 600 px")
    func zoomedTimePixel() {
        var zoom = ScrubberZoom(duration: 120)
        zoom.zoom(to: 8, around: 60, width: 600)
        let geometry = ScrubberGeometry(left: 20, width: 600, zoom: zoom)
        #expect(geometry.start == 52.5 && geometry.span == 15 && geometry.duration == 120)
        #expect(geometry.x(forTime: 52.5) == 20 && geometry.x(forTime: 60) == 320 && geometry.x(forTime: 67.5) == 620)
        #expect(geometry.time(forX: 20) == 52.5 && geometry.time(forX: 170) == 56.25 && geometry.time(forX: 620) == 67.5)
        // Outside the stretch: pinned to its edges.
        #expect(geometry.x(forTime: 10) == 20 && geometry.x(forTime: 100) == 620)
        #expect(geometry.time(forX: -50) == 52.5 && geometry.time(forX: 900) == 67.5)
    }

    @Test("a zoomed layout puts the minimap over the scrubber, which stays where it was; the bars give up the room")
    func minimapLayout() {
        let plain = PlayLayout(width: 1280, height: 720)
        let zoomed = PlayLayout(width: 1280, height: 720, showsMinimap: true)
        #expect(plain.minimapHeight == 0 && !plain.isOnMinimap(x: 640, y: Double(plain.scrubberTop - 10)))
        #expect(zoomed.scrubberTop == plain.scrubberTop && zoomed.scrubberHeight == plain.scrubberHeight && zoomed.labelTop == plain.labelTop)
        // 22 % of 720 is 158 px of scrubber; a quarter of it for the minimap, 16 px margins halved.
        #expect(zoomed.minimapHeight == 39 && zoomed.minimapTop == plain.scrubberTop - 39 - 16)
        #expect(zoomed.barsHeight == zoomed.minimapTop - 16 && zoomed.barsHeight == plain.barsHeight - 39 - 16)
        #expect(zoomed.isOnMinimap(x: 640, y: Double(zoomed.minimapTop)) && !zoomed.isOnMinimap(x: 640, y: Double(zoomed.scrubberTop)))
        #expect(!zoomed.isOnMinimap(x: 5, y: Double(zoomed.minimapTop + 1)))
    }

    @Test("columns fit bar width and spacing: (width + spacing) / (bar + spacing)")
    func columns() {
        #expect(ScrubberGeometry(left: 0, width: 1000, duration: 1).columnCount(barWidth: 3, spacing: 2) == 200)
        #expect(ScrubberGeometry(left: 0, width: 998, duration: 1).columnCount(barWidth: 3, spacing: 2) == 200)
        #expect(ScrubberGeometry(left: 0, width: 997, duration: 1).columnCount(barWidth: 3, spacing: 2) == 199)
        #expect(ScrubberGeometry(left: 0, width: 10, duration: 1).columnCount(barWidth: 1, spacing: 0) == 10)
    }

    @Test("dB mode: the floor maps to 0, the loudest sample to 1, -35 dB halfway on a -70 floor")
    func decibelScale() {
        let scale = ScrubberScale.decibels(floor: -70)
        #expect(scale.height(magnitude: 0.5, largest: 0.5) == 1)
        #expect(scale.height(magnitude: 0, largest: 0.5) == 0)
        #expect(scale.height(magnitude: 1e-9, largest: 1) == 0)
        let halfway = scale.height(magnitude: 0.5 * 0.017782794, largest: 0.5) // -35 dB
        #expect(abs(halfway - 0.5) < 1e-4)
        #expect(abs(ScrubberScale.decibels(floor: -50).height(magnitude: 0.1, largest: 1) - 0.6) < 1e-5)
        #expect(abs(ScrubberScale.linear.height(magnitude: 0.25, largest: 0.5) - 0.5) < 1e-6)
        #expect(ScrubberScale.linear.height(magnitude: 0.25, largest: 0) == 0)
    }

    @Test("time labels: m:ss under an hour, h:mm:ss from an hour", arguments: [
        (0.0, "0:00"), (59.9, "0:59"), (60.0, "1:00"), (61.0, "1:01"), (600.0, "10:00"), (3599.99, "59:59"),
        (3600.0, "1:00:00"), (3725.0, "1:02:05"), (36000.0, "10:00:00"), (-3.0, "0:00"), (Double.nan, "0:00"),
    ])
    func labels(seconds: Double, text: String) {
        #expect(TimeLabel.text(seconds: seconds) == text)
        var bytes: [UInt8] = []
        TimeLabel.append(seconds: seconds, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == text)
    }
}
