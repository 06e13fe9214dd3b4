import DecibarCore
import Testing

@Suite struct ComposedLayoutTests {
    @Test func landscapePutsTheTitleBesideTheCoverOverTheBars() {
        let layout = ComposedLayout(width: 1920, height: 1080, hasCover: true, titleLines: 1, artistLines: 1, radial: false)
        #expect(layout.safeArea == PixelRect(x: 54, y: 54, width: 1812, height: 972))
        #expect(layout.cover == PixelRect(x: 54, y: 54, width: 448, height: 448))
        // Title 67 px and artist 45 px, 1.25 lines apart: 140 px, centered on the cover.
        #expect((layout.titleSize, layout.artistSize) == (67, 45))
        #expect(layout.text == PixelRect(x: 556, y: 208, width: 1310, height: 140))
        #expect(layout.textAlignment == .leading)
        #expect((layout.barsTop, layout.barsHeight, layout.captionsBottom) == (529, 341, 857))
        // The scrubber a tenth of the height, not the player's 22 %.
        #expect(layout.play.scrubberHeight == 108)
    }

    @Test("--progress none: no scrubber; the cover, the title and the bars take its room, down to the safe area's edge")
    func withoutProgress() {
        let layout = ComposedLayout(width: 1920, height: 1080, hasCover: true, titleLines: 1, artistLines: 1, radial: false, progress: false)
        #expect(!layout.showsProgress)
        // The room is 1080 - 54 high: the cover 55 % of it less a margin, (1026 - 54) * 55 / 100.
        #expect(layout.cover == PixelRect(x: 54, y: 54, width: 534, height: 534))
        #expect(layout.text == PixelRect(x: 642, y: 251, width: 1224, height: 140))
        #expect((layout.barsTop, layout.barsHeight, layout.captionsBottom) == (615, 411, 1013))
    }

    @Test func portraitStacksCoverTitleAndBars() {
        let layout = ComposedLayout(width: 1080, height: 1920, hasCover: true, titleLines: 1, artistLines: 1, radial: false)
        #expect(layout.cover == PixelRect(x: 179, y: 108, width: 722, height: 722))
        #expect(layout.text == PixelRect(x: 54, y: 857, width: 972, height: 140))
        #expect(layout.textAlignment == .center)
        #expect((layout.barsTop, layout.barsHeight) == (1024, 581))
    }

    @Test func radialBarsRingTheCoverUnderTheTitle() {
        let layout = ComposedLayout(width: 1080, height: 1080, hasCover: true, titleLines: 2, artistLines: 1, radial: true)
        #expect(layout.cover == nil)
        // Two title lines: (2·67 + 45)·5/4 = 223 px.
        #expect(layout.text == PixelRect(x: 54, y: 54, width: 972, height: 223))
        #expect((layout.barsTop, layout.barsHeight) == (304, 587))
        // Nothing to compose: the bars take the whole area above the scrubber.
        let bare = ComposedLayout(width: 1080, height: 1080, hasCover: false, titleLines: 0, artistLines: 0, radial: false)
        #expect((bare.barsTop, bare.barsHeight) == (0, 891))
    }

    @Test func backdropIsAveragedDownThenBlurred() {
        var wide = Picture(width: 4, height: 2)
        for (index, value) in [10, 20, 30, 40, 50, 60, 70, 80].enumerated() {
            for channel in 0 ..< 4 { wide.pixels[index * 4 + channel] = UInt8(value) }
        }
        let small = wide.shrunk(toLongerSide: 2)
        #expect((small.width, small.height) == (2, 1))
        #expect(small.pixels == [35, 35, 35, 35, 55, 55, 55, 55])
        // A box of three, the ends held: (0+0+90)/3, (0+90+255)/3, (90+255+255)/3.
        var line = Picture(width: 3, height: 1)
        for (index, value) in [0, 90, 255].enumerated() {
            for channel in 0 ..< 4 { line.pixels[index * 4 + channel] = UInt8(value) }
        }
        #expect(line.blurred(radius: 1, passes: 1).pixels == [30, 30, 30, 30, 115, 115, 115, 115, 200, 200, 200, 200])
    }
}
