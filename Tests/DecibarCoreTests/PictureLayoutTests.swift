import DecibarCore
import Testing

@Suite("Video pictures: layout and schedule")
struct PictureLayoutTests {
    @Test("under: letterboxed in the whole area above the scrubber, bars over it; centered across (pillarbox) or down (letterbox)")
    func under() {
        let wide = PictureLayout(.under, aspectRatio: 16.0 / 9.0, width: 1280, areaHeight: 500)
        #expect(wide.picture == PixelRect(x: 195, y: 0, width: 889, height: 500))
        #expect(wide.barsTop == 0 && wide.barsHeight == 500)
        let cinema = PictureLayout(.under, aspectRatio: 2.39, width: 1000, areaHeight: 600)
        #expect(cinema.picture == PixelRect(x: 0, y: 91, width: 1000, height: 418))
    }

    @Test("above: a panel of 62 % of the area holds the picture; the bars get the rest below it")
    func above() {
        let layout = PictureLayout(.above, aspectRatio: 4.0 / 3.0, width: 640, areaHeight: 300)
        #expect(layout.barsTop == 186 && layout.barsHeight == 114)
        #expect(layout.picture == PixelRect(x: 196, y: 0, width: 248, height: 186))
    }

    @Test("off, no picture, or a nonsense aspect ratio: the bars have the whole area")
    func none() {
        for layout in [PictureLayout(.off, aspectRatio: 1.5, width: 640, areaHeight: 300),
                       PictureLayout(.under, aspectRatio: nil, width: 640, areaHeight: 300),
                       PictureLayout(.above, aspectRatio: .nan, width: 640, areaHeight: 300),
                       PictureLayout(.above, aspectRatio: 0, width: 640, areaHeight: 300)] {
            #expect(layout.picture == nil && layout.barsTop == 0 && layout.barsHeight == 300)
        }
    }

    @Test("frames decode at the size drawn, but never larger than the picture itself")
    func decodeSize() {
        #expect(PictureLayout.decodeSize(for: PixelRect(x: 0, y: 0, width: 640, height: 360), pictureWidth: 1920, pictureHeight: 1080) == (640, 360))
        #expect(PictureLayout.decodeSize(for: PixelRect(x: 0, y: 0, width: 1280, height: 720), pictureWidth: 640, pictureHeight: 360) == (640, 360))
        #expect(PictureLayout.decodeSize(for: PixelRect(x: 0, y: 0, width: 889, height: 500), pictureWidth: 320, pictureHeight: 180) == (320, 180))
    }

    @Test("the frame shown is the latest whose time was heard: never early, the ones passed over are dropped")
    func schedule() {
        let times = [1.00, 1.04, 1.08, 1.12]
        #expect(PictureSchedule.due(times: times, heard: 0.99) == nil)
        #expect(PictureSchedule.due(times: times, heard: 1.00) == 0)
        #expect(PictureSchedule.due(times: times, heard: 1.0799) == 1)
        #expect(PictureSchedule.due(times: times, heard: 1.10) == 2)
        #expect(PictureSchedule.due(times: times, heard: 5) == 3)
        #expect(PictureSchedule.due(times: [Double](), heard: 5) == nil)
    }

    @Test("a reused picture keeps its storage when it shrinks and grows it only when needed")
    func pictureStorage() {
        var picture = Picture(width: 4, height: 2)
        #expect(picture.pixels.count == 32)
        picture.resize(width: 2, height: 2)
        #expect(picture.pixels.count == 32 && picture.width == 2)
        picture.resize(width: 8, height: 2)
        #expect(picture.pixels.count == 64)
        picture.time = 2
        picture.duration = 0.04
        #expect(picture.end == 2.04)
    }
}
