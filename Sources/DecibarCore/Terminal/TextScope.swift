/// The stereo scope in braille dots: mid (L+R) up, side (R−L) across, as the window's goniometer
/// plots it, so a mono tone is a vertical line and one channel alone a diagonal; the correlation
/// and balance as numbers beside it.
public enum TextScope {
    /// Plots `state`'s trail in `area` (the dots square-ish: a cell is about twice as tall as wide).
    public static func draw(_ state: StereoScopeState, in area: PixelRect, theme: BarTheme, dots: inout BrailleDots, into grid: inout CellGrid) {
        guard area.width > 0, area.height > 1 else { return }
        // Dots are 2 across and 4 down a cell; cells about 1:2, so a dot is about square.
        // The square takes three fifths of the width at most; the readings go beside it.
        let room = area.width >= 40 ? area.width * 3 / 5 : area.width
        let side = max(2, min(room * 2, area.height * 4))
        let columns = (side + 1) / 2
        let rows = (side + 3) / 4
        let left = area.x + max(0, (room - columns) / 2)
        let top = area.y + (area.height - rows) / 2
        dots.clear(columns: columns, rows: rows)
        let half = Float(side) / 2
        // The trail is the first `count` samples, oldest first.
        for index in 0..<state.count {
            let l = state.left[index], r = state.right[index]
            let x = (r - l) / 2 * state.gain, y = (l + r) / 2 * state.gain
            dots.set(x: Int((half * (1 + x)).rounded(.down)), y: Int((half * (1 - y)).rounded(.down)))
        }
        let (base, tip) = (TerminalCell.rgb(theme.center), TerminalCell.rgb(theme.tip))
        let rowCount = max(1, rows)
        dots.draw(atX: left, y: top, into: &grid) { _, row in TerminalCell.mix(tip, base, Float(row) / Float(rowCount)) }
        // The readings beside it, where there is room.
        let textX = left + columns + 3
        guard textX + 12 < area.x + area.width else { return }
        let reading = state.reading
        let labelColor: UInt32 = 0xA0A8B8
        grid.write("correlation " + signed(reading.correlation), x: textX, y: area.y + area.height / 2 - 1, foreground: labelColor)
        grid.write("balance     " + signed(reading.balance), x: textX, y: area.y + area.height / 2 + 1, foreground: labelColor)
    }

    private static func signed(_ value: Double) -> String {
        let hundredths = Int((max(-1, min(1, value)) * 100).rounded())
        let magnitude = abs(hundredths)
        return (hundredths < 0 ? "-" : "+") + "\(magnitude / 100)." + (magnitude % 100 < 10 ? "0" : "") + "\(magnitude % 100)"
    }
}
