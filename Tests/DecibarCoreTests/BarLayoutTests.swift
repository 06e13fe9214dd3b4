import DecibarCore
import Testing

@Suite("Bar layout geometry")
struct BarLayoutTests {
    @Test("heights follow the value, centred vertically, with a visible minimum")
    func heights() {
        let layout = BarLayout(fillRatio: 0.5, verticalMarginRatio: 0.1, horizontalMarginRatio: 0, minimumHeight: 2)
        let rects = layout.rects(for: [0, 0.5, 1], width: 300, height: 100)
        #expect(layout.maximumHeight(canvasHeight: 100) == 80)
        #expect(rects.map(\.height) == [2, 40, 80])
        #expect(rects.map(\.y) == [49, 30, 10])
        #expect(rects.map(\.x) == [25, 125, 225])
        #expect(rects.map(\.width) == [50, 50, 50])
    }

    @Test("bars never overlap and stay inside the canvas", arguments: [1, 2, 3, 7, 64, 333])
    func inside(count: Int) {
        let layout = BarLayout()
        let rects = layout.rects(for: [Float](repeating: 1, count: count), width: 1280, height: 720)
        #expect(rects.count == count)
        for (left, right) in zip(rects, rects.dropFirst()) { #expect(left.maxX <= right.x) }
        for rect in rects {
            #expect(rect.x >= 0 && rect.maxX <= 1280 && rect.y >= 0 && rect.maxY <= 720)
            #expect(rect.width >= 1)
        }
    }

    @Test("an empty canvas or no values gives no bars")
    func empty() {
        #expect(BarLayout().rects(for: [], width: 100, height: 100).isEmpty)
        #expect(BarLayout().rects(for: [1], width: 0, height: 100).isEmpty)
    }
}
