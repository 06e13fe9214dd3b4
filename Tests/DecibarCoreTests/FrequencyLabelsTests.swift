import DecibarCore
import Testing

@Suite("Frequency labels under the spectrum")
struct FrequencyLabelsTests {
    /// 8 bands a side, one a labelled frequency each (50 Hz to 10 kHz); bars 20 px wide every 25 px.
    static let frequencies: [Double] = [50, 100, 200, 500, 1000, 2000, 5000, 10_000]
    static let rects = (0 ..< 16).map { PixelRect(x: $0 * 25, y: 0, width: 20, height: 10) }

    static func place(textWidth: (String) -> Int, lowsAtEdges: Bool = false) -> [String] {
        var placed: [String] = []
        FrequencyLabels.place(bandCount: 8, band: { frequencies.firstIndex(of: $0) }, barRects: rects, width: 400,
                              lowsAtEdges: lowsAtEdges, textWidth: textWidth) { placed.append("\($0)@\($1)") }
        return placed
    }

    @Test("each label is centered under its band on both halves, lows in the middle, kept inside the canvas")
    func centered() {
        #expect(Self.place(textWidth: { 6 * $0.count }) == [
            "50@179", "50@204", "100@151", "100@226", "200@126", "200@251", "500@101", "500@276",
            "1k@79", "1k@304", "2k@54", "2k@329", "5k@29", "5k@354", "10k@1", "10k@376",
        ])
    }

    @Test("a label that would come within 4 px of the one before it on its half (or across the middle) is left out")
    func crowded() {
        #expect(Self.place(textWidth: { _ in 30 }) == ["50@170", "100@220", "200@120", "500@270", "1k@70", "2k@320", "5k@20", "10k@370"])
    }

    @Test("the line sits under bars that grow from the center or the bottom, above bars that hang from the top")
    func line() {
        #expect(FrequencyLabels.y(height: 400, maximumBarHeight: 360, orientation: .center, textHeight: 12) == 382)
        #expect(FrequencyLabels.y(height: 400, maximumBarHeight: 360, orientation: .top, textHeight: 12) == 6)
        #expect(FrequencyLabels.y(height: 400, maximumBarHeight: 396, orientation: .top, textHeight: 12) == 0)
    }

    @Test("no labels when the bars are not the spectrum's (a count that does not match)")
    func mismatch() {
        var count = 0
        FrequencyLabels.place(bandCount: 4, band: { _ in 0 }, barRects: Self.rects, width: 400, lowsAtEdges: false,
                              textWidth: { _ in 10 }) { _, _ in count += 1 }
        #expect(count == 0)
    }
}
