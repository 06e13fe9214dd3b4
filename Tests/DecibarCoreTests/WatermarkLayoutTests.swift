import DecibarCore
import Testing

@Suite struct WatermarkLayoutTests {
    @Test("a 200x100 logo on 1920x1080: 135x68, a twentieth of 1080 (54) in from the corner's edges")
    func landscape() {
        func rect(_ corner: WatermarkLayout.Corner) -> PixelRect {
            WatermarkLayout(pictureWidth: 200, pictureHeight: 100, canvasWidth: 1920, canvasHeight: 1080, corner: corner).rect
        }
        #expect(rect(.topRight) == PixelRect(x: 1731, y: 54, width: 135, height: 68))
        #expect(rect(.topLeft) == PixelRect(x: 54, y: 54, width: 135, height: 68))
        #expect(rect(.bottomLeft) == PixelRect(x: 54, y: 958, width: 135, height: 68))
        #expect(rect(.bottomRight) == PixelRect(x: 1731, y: 958, width: 135, height: 68))
    }

    @Test("a tall logo on a portrait frame keeps its shape; a tiny frame keeps a 4-pixel margin and a 1-pixel picture")
    func portraitAndTiny() {
        #expect(WatermarkLayout(pictureWidth: 100, pictureHeight: 200, canvasWidth: 1080, canvasHeight: 1920, corner: .bottomRight).rect
            == PixelRect(x: 1080 - 54 - 68, y: 1920 - 54 - 135, width: 68, height: 135))
        #expect(WatermarkLayout(pictureWidth: 64, pictureHeight: 64, canvasWidth: 8, canvasHeight: 8, corner: .topLeft).rect
            == PixelRect(x: 4, y: 4, width: 1, height: 1))
    }

    @Test("above a scrubber whose top is row 900: the bottom corners end half a margin (27) over it; the top ones do not move")
    func aboveTheScrubber() {
        func rect(_ corner: WatermarkLayout.Corner, above: Int) -> PixelRect {
            WatermarkLayout(pictureWidth: 200, pictureHeight: 100, canvasWidth: 1920, canvasHeight: 1080, corner: corner, above: above).rect
        }
        #expect(rect(.bottomLeft, above: 900) == PixelRect(x: 54, y: 900 - 27 - 68, width: 135, height: 68))
        #expect(rect(.bottomRight, above: 900) == PixelRect(x: 1731, y: 805, width: 135, height: 68))
        #expect(rect(.topRight, above: 900) == PixelRect(x: 1731, y: 54, width: 135, height: 68))
        // A scrubber lower than the safe area's edge changes nothing; one near the top leaves the picture at the margin.
        #expect(rect(.bottomLeft, above: 1070) == PixelRect(x: 54, y: 958, width: 135, height: 68))
        #expect(rect(.bottomLeft, above: 60) == PixelRect(x: 54, y: 54, width: 135, height: 68))
    }
}
