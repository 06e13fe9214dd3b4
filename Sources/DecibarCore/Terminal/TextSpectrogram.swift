/// The spectrogram in half blocks: each cell two points high (U+2580, the top point in the
/// foreground colour, the bottom in the background), time running left to right, the newest
/// column at the right edge, frequencies on a log axis from the bottom.
public enum TextSpectrogram {
    /// Draws the last `SpectrogramState.secondsShown` of `state` into `area`, coloured by
    /// `colors` (the colour map from `floorDB` up to 0 dB).
    public static func draw(_ state: SpectrogramState, in area: PixelRect, colors: [UInt32], floorDB: Float, into grid: inout CellGrid) {
        guard area.width > 0, area.height > 0, !colors.isEmpty else { return }
        let points = area.height * 2
        let rowCount = SpectrogramState.rowCount
        let shown = SpectrogramState.shownColumns
        let capacity = SpectrogramState.capacity
        let top = Float(colors.count - 1)
        let range = max(1, -floorDB)
        for column in 0..<area.width {
            // Column `column` of the area shows the ring's column this far back from the newest.
            let back = (area.width - 1 - column) * shown / area.width
            let ring = ((state.newest - back) % capacity + capacity) % capacity
            let offset = ring * rowCount
            for row in 0..<area.height {
                // Points from the bottom: this cell holds points p (its bottom half) and p + 1 (its top).
                let lower = (area.height - 1 - row) * 2
                func color(_ point: Int) -> UInt32 {
                    let analysisRow = min(rowCount - 1, point * rowCount / points)
                    let db = state.made > back ? state.columns[offset + analysisRow] : SpectrogramAnalysis.silence
                    let share = min(1, max(0, (db - floorDB) / range))
                    return colors[Int((share * top).rounded())]
                }
                grid[area.x + column, area.y + row] = TerminalCell("\u{2580}", foreground: color(lower + 1), background: color(lower))
            }
        }
    }
}
