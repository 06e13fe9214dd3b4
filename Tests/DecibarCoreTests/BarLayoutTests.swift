import DecibarCore
import Testing

@Suite("Bar layout geometry")
struct BarLayoutTests {
    @Test("heights follow the value, centerd vertically, with a visible minimum")
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

@Suite("Bar layout: orientation, fixed widths, meter")
struct BarOrientationTests {
    @Test("bottom bars stand on the bottom margin, top bars hang from the top one, center bars are centerd")
    func orientations() {
        var layout = BarLayout(fillRatio: 0.5, verticalMarginRatio: 0.1, horizontalMarginRatio: 0, minimumHeight: 2)
        layout.orientation = .bottom
        #expect(layout.rects(for: [0.5, 1], width: 200, height: 100).map(\.y) == [50, 10])
        #expect(layout.rects(for: [0.5, 1], width: 200, height: 100).map(\.maxY) == [90, 90])
        #expect(layout.growthAxis(canvasHeight: 100) == (90, 80))
        layout.orientation = .top
        #expect(layout.rects(for: [0.5, 1], width: 200, height: 100).map(\.y) == [10, 10])
        #expect(layout.growthAxis(canvasHeight: 100) == (10, 80))
        layout.orientation = .center
        #expect(layout.rects(for: [0.5, 1], width: 200, height: 100).map(\.y) == [30, 10])
        #expect(layout.growthAxis(canvasHeight: 100) == (50, 50))
    }

    @Test("with a fixed bar width and spacing, as many bars fit as cava would, centerd")
    func fixedWidth() {
        var layout = BarLayout(horizontalMarginRatio: 0)
        layout.fixedWidth = (bar: 20, spacing: 5)
        #expect(layout.fittingCount(canvasWidth: 1000) == 40)
        #expect(layout.fittingCount(canvasWidth: 1019) == 40)
        #expect(layout.fittingCount(canvasWidth: 1020) == 41)
        let rects = layout.rects(for: [1, 1, 1], width: 100, height: 50)
        #expect(rects.map(\.x) == [15, 40, 65])
        #expect(rects.allSatisfy { $0.width == 20 })
        #expect(BarLayout().fittingCount(canvasWidth: 1000) == nil)
    }

    @Test("meter scale: 0 dB at the top, the floor at the bottom, linear in dB between")
    func meterScale() {
        let meter = MeterLayout(width: 800, height: 400, channelCount: 2)
        #expect(meter.y(forDB: 0) == meter.scaleTop)
        #expect(meter.y(forDB: 6) == meter.scaleTop)
        #expect(meter.y(forDB: -70) == meter.scaleBottom)
        #expect(meter.y(forDB: -200) == meter.scaleBottom)
        #expect(meter.y(forDB: -35) == (meter.scaleTop + meter.scaleBottom + 1) / 2)
        let left = meter.barSlot(channel: 0), right = meter.barSlot(channel: 1)
        #expect(left.maxX < right.x)
        #expect(left.x >= meter.labelWidth && right.maxX <= 800)
        #expect(meter.bar(channel: 1, level: -35).maxY == meter.scaleBottom)
        #expect(meter.visibleTicks.last == -70)
    }

    @Test("every built-in theme is found by name and differs from the others")
    func themes() {
        #expect(BarTheme.presetNames.count >= 4)
        for name in BarTheme.presetNames { #expect(BarTheme.preset(named: name) != nil) }
        #expect(BarTheme.preset(named: "nope") == nil)
        #expect(Set(BarTheme.presets.map { "\($0.theme.tip)" }).count == BarTheme.presets.count)
    }
}
