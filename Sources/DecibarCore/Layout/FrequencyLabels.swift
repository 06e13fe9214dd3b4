/// Where the spectrum's frequency labels go: under the band that holds each frequency, on both
/// halves, in the margin the bars leave, and left out where one would crowd the one before it
/// (narrow low bands). Shared by the window and the web page, which measure text differently.
public enum FrequencyLabels {
    /// The frequencies labelled, and their texts.
    public static let labelled: [(hertz: Double, text: String)] = [
        (50, "50"), (100, "100"), (200, "200"), (500, "500"), (1000, "1k"), (2000, "2k"), (5000, "5k"), (10_000, "10k"),
    ]

    public static let color = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.8)

    /// The top of the labels' line: above the bars when they hang from the top, else below them.
    public static func y(height: Int, maximumBarHeight: Int, orientation: BarOrientation, textHeight: Int) -> Int {
        let margin = (height - maximumBarHeight) / 2
        return orientation == .top ? max(0, margin - textHeight - 2) : height - margin + 2
    }

    /// Calls `body` with each label kept and the x of its left edge. `barRects` are the frame's
    /// bars, both halves (`2 * bandCount`); `band` finds the band holding a frequency.
    public static func place(bandCount: Int, band: (Double) -> Int?, barRects: [PixelRect], width: Int, lowsAtEdges: Bool,
                             textWidth: (String) -> Int, body: (_ text: String, _ x: Int) -> Void) {
        guard bandCount > 0, barRects.count == 2 * bandCount else { return }
        // The left edge of the last label on the left half, the right edge of the last on the right.
        var lastLeft = Int.min, lastRight = Int.min
        for (frequency, text) in labelled {
            guard let index = band(frequency) else { continue }
            let size = textWidth(text)
            let positions = StereoSpectrum.positions(ofBand: index, bandCount: bandCount, lowsAtEdges: lowsAtEdges)
            for side in 0 ..< 2 {
                let rect = barRects[side == 0 ? positions.left : positions.right]
                let x = min(max(0, rect.x + rect.width / 2 - size / 2), width - size)
                // Also across the middle.
                guard side == 1 ? x > lastRight + 4 : (lastLeft == Int.min || x + size + 4 < lastLeft) else { continue }
                body(text, x)
                if side == 0 && lastLeft == Int.min && !lowsAtEdges { lastRight = max(lastRight, x + size) }
                if side == 1 { lastRight = x + size } else { lastLeft = x }
            }
        }
    }
}
