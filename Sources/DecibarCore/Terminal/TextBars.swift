/// Bars in eighth blocks: each bar a few columns wide, its tip an eighth of a cell fine (U+2581
/// to U+2588), growing from the bottom, the top, or up and down from the middle as the window's
/// do; the theme's gradient from the base to the tip, and caps as a red line above.
public enum TextBars {
    /// How many bars fit across `columns` without being asked (two columns and a gap each).
    public static func fittingCount(columns: Int) -> Int { max(1, (columns + 1) / 3) }

    /// Where bar `index` of `count` starts and how wide it is, centred in `area`: as wide as fits
    /// with a column between bars (none when they do not fit otherwise).
    public static func columns(count: Int, in area: PixelRect, width: Int? = nil, spacing: Int? = nil) -> (first: Int, width: Int, step: Int) {
        guard count > 0, area.width > 0 else { return (area.x, 0, 0) }
        var gap = spacing ?? (area.width >= 2 * count - 1 ? 1 : 0)
        var barWidth = width ?? max(1, (area.width - (count - 1) * gap) / count)
        if count * barWidth + (count - 1) * gap > area.width {
            gap = 0
            barWidth = max(1, area.width / count)
        }
        let used = min(area.width, count * barWidth + (count - 1) * gap)
        return (area.x + (area.width - used) / 2, barWidth, barWidth + gap)
    }

    /// Draws `values` (0...1) as bars in `area` (blank beforehand); `caps` (the same count, or empty) above them.
    public static func draw(_ values: [Float], caps: [Float] = [], in area: PixelRect, orientation: BarOrientation, theme: BarTheme,
                            barWidth: Int? = nil, spacing: Int? = nil, into grid: inout CellGrid) {
        guard area.height > 0, !values.isEmpty else { return }
        let place = columns(count: values.count, in: area, width: barWidth, spacing: spacing)
        let (base, tip) = (TerminalCell.rgb(theme.center), TerminalCell.rgb(theme.tip))
        let capColor = TerminalCell.rgb(MeterPicture.capColor)
        // Rows each half of a centred bar has; the whole height otherwise.
        let reach = orientation == .center ? area.height / 2 : area.height
        guard reach > 0 else { return }
        // The gradient is along the bar: one colour a row, worked out once.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: reach) { rowColors in
            for step in 0..<reach { rowColors[step] = TerminalCell.mix(base, tip, (Float(step) + 0.5) / Float(reach)) }
            for (index, value) in values.enumerated() {
                let x = place.first + index * place.step
                guard x < area.x + area.width else { break }
                let eighths = Int((min(1, max(0, value)) * Float(reach * 8)).rounded())
                let capEighths = index < caps.count ? Int((min(1, max(0, caps[index])) * Float(reach * 8)).rounded()) : 0
                // Rows above the bar and its cap stay as the grid has them (blank).
                let rows = min(reach, (max(eighths, capEighths) + 7) / 8)
                for step in 0..<rows {
                    let fill = min(8, max(0, eighths - step * 8))
                    let color = rowColors[step]
                    var capped = false
                    if fill == 0, capEighths > eighths, capEighths > step * 8, capEighths <= step * 8 + 8, !caps.isEmpty { capped = true }
                    guard fill > 0 || capped else { continue }
                    for column in x..<min(x + place.width, area.x + area.width) {
                        switch orientation {
                        case .bottom:
                            grid[column, area.y + area.height - 1 - step] = upward(fill, color: capped ? capColor : color, cap: capped)
                        case .top:
                            grid[column, area.y + step] = downward(fill, color: capped ? capColor : color, cap: capped)
                        case .center:
                            let middle = area.y + area.height / 2
                            grid[column, middle - 1 - step] = upward(fill, color: capped ? capColor : color, cap: capped)
                            grid[column, middle + step] = downward(fill, color: capped ? capColor : color, cap: capped)
                        }
                    }
                }
            }
        }
    }

    /// A cell filled `eighths` from its bottom.
    static func upward(_ eighths: Int, color: UInt32, cap: Bool) -> TerminalCell {
        if cap { return TerminalCell("\u{2581}", foreground: color) }
        switch eighths {
        case ...0: return .blank
        case 8...: return TerminalCell("\u{2588}", foreground: color)
        default: return TerminalCell(Unicode.Scalar(0x2580 + UInt32(eighths))!, foreground: color)
        }
    }

    /// A cell filled `eighths` from its top: the lower rest in the terminal's background over the
    /// bar's colour (colours swapped), since Unicode has no upper three-eighths block.
    static func downward(_ eighths: Int, color: UInt32, cap: Bool) -> TerminalCell {
        if cap { return TerminalCell("\u{2594}", foreground: color) }
        switch eighths {
        case ...0: return .blank
        case 8...: return TerminalCell("\u{2588}", foreground: color)
        default: return TerminalCell(Unicode.Scalar(0x2588 - UInt32(eighths))!, foreground: color, inverse: true)
        }
    }

    /// A horizontal bar `value` (0...1) of `width` columns from x on row y, in left blocks
    /// (U+258F to U+2589 for the part cell), coloured along its length.
    public static func drawHorizontal(_ value: Float, x: Int, y: Int, width: Int, from base: UInt32, to tip: UInt32, into grid: inout CellGrid) {
        guard width > 0, y >= 0, y < grid.height else { return }
        let eighths = Int((min(1, max(0, value)) * Float(width * 8)).rounded())
        for step in 0..<width where x + step >= 0 && x + step < grid.width {
            let fill = min(8, max(0, eighths - step * 8))
            let color = TerminalCell.mix(base, tip, (Float(step) + 0.5) / Float(width))
            grid[x + step, y] = switch fill {
            case 0: TerminalCell("\u{2591}", foreground: 0x30_3440)
            case 8: TerminalCell("\u{2588}", foreground: color)
            default: TerminalCell(Unicode.Scalar(0x2590 - UInt32(fill))!, foreground: color)
            }
        }
    }
}
