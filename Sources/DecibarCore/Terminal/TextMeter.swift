/// The level meter across the terminal: a bar per channel in left blocks (U+258F to U+2589),
/// the peak hold as a line, the clip lamp, and the loudness figures under them.
public enum TextMeter {
    public static func draw(_ state: MeterState, in area: PixelRect, theme: BarTheme, into grid: inout CellGrid) {
        guard area.width > 12, area.height > 0 else { return }
        let labelWidth = 3
        let barX = area.x + labelWidth
        let barWidth = area.width - labelWidth - 8
        let channels = max(1, min(2, state.channels))
        let floor = MeterState.floorDB
        func share(_ db: Float) -> Float { min(1, max(0, (db - floor) / -floor)) }
        let (base, tip) = (TerminalCell.rgb(theme.center), TerminalCell.rgb(theme.tip))
        let labelColor: UInt32 = 0xA0A8B8
        // Each channel a band of rows: the bar's rows with a gap between channels.
        let band = max(1, min(4, (area.height - 2) / channels))
        let top = area.y + max(0, (area.height - channels * band - 2) / 2)
        for channel in 0..<channels {
            let reading = state.meter.reading(channel: channel)
            let y = top + channel * band
            let rows = max(1, band - (band > 1 ? 1 : 0))
            grid.write(channels == 1 ? "M" : channel == 0 ? "L" : "R", x: area.x, y: y + rows / 2, foreground: labelColor)
            for row in 0..<rows {
                TextBars.drawHorizontal(share(reading.rmsDB), x: barX, y: y + row, width: barWidth, from: base, to: tip, into: &grid)
                // The hold: a thin line where the peak was.
                let hold = Int((share(reading.holdDB) * Float(barWidth - 1)).rounded())
                if reading.holdDB > floor, grid.contains(x: barX + hold, y: y + row) {
                    grid[barX + hold, y + row] = TerminalCell("\u{2595}", foreground: TerminalCell.rgb(MeterPicture.capColor))
                }
            }
            let peak = reading.peakDB <= floor ? "  -inf" : DecibelText.fixed(reading.peakDB, width: 6)
            grid.write(peak, x: barX + barWidth + 1, y: y + rows / 2, foreground: reading.isClipping ? 0xFF4040 : labelColor)
        }
        // The scale under the bars.
        let scaleY = top + channels * band
        for db in stride(from: 0, through: Int(floor), by: -10) {
            let x = barX + Int((share(Float(db)) * Float(barWidth - 1)).rounded())
            let text = "\(db)"
            grid.write(text, x: min(x, barX + barWidth - text.count), y: scaleY, foreground: 0x707888)
        }
        if let loudness = state.loudness, scaleY + 1 < area.y + area.height {
            func lufs(_ value: Double?) -> String { value.map { DecibelText.fixed(Float($0), width: 6) } ?? "    --" }
            grid.write("M" + lufs(loudness.momentaryLUFS) + "  S" + lufs(loudness.shortTermLUFS) + "  I" + lufs(loudness.integratedLUFS) + " LUFS",
                       x: barX, y: scaleY + 1, foreground: labelColor)
        }
    }
}

/// Decibels with one decimal, right-aligned, for the terminal's labels.
enum DecibelText {
    static func fixed(_ value: Float, width: Int) -> String {
        let tenths = Int((value * 10).rounded())
        let magnitude = abs(tenths)
        let text = (tenths < 0 ? "-" : "") + "\(magnitude / 10).\(magnitude % 10)"
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
