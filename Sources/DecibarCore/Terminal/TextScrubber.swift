/// The player's waveform scrubber in the terminal's bottom rows: the track's overview in braille
/// dots (the played part in the theme's colour, the rest grey), the playhead, and a row with the
/// time, the length and the title. Its columns map to the track's time as the window's do
/// (`ScrubberGeometry`), so a click on a cell seeks to that cell's time.
public struct TextScrubber: Sendable {
    /// The overview's dots, made again only when the peaks, their scale or the size change.
    private var dots = BrailleDots(columns: 0, rows: 0)
    private var madeFor: (version: Int, track: Int, columns: Int, rows: Int, geometry: ScrubberGeometry)?

    public init() {}

    /// Rows the scrubber takes at the bottom of a terminal `height` rows high: the waveform and the labels.
    public static func rows(forHeight height: Int) -> (waveform: Int, total: Int) {
        let waveform = height >= 24 ? 3 : height >= 12 ? 2 : 1
        return (waveform, waveform + 1)
    }

    /// Where the waveform is in `area` (the scrubber's rows): all columns but a margin of one.
    public static func waveformArea(_ area: PixelRect) -> PixelRect {
        PixelRect(x: area.x + 1, y: area.y, width: max(1, area.width - 2), height: max(1, area.height - 1))
    }

    /// Time for columns: the geometry of the waveform's cells, the whole track or the stretch
    /// `zoom` shows (a click at a cell's middle is that cell's time).
    public static func geometry(_ area: PixelRect, duration: Double, zoom: ScrubberZoom? = nil) -> ScrubberGeometry {
        let waveform = waveformArea(area)
        if let zoom { return ScrubberGeometry(left: Double(waveform.x), width: Double(waveform.width), zoom: zoom) }
        return ScrubberGeometry(left: Double(waveform.x), width: Double(waveform.width), duration: duration)
    }

    public struct State: Sendable {
        public var peaks: Peaks?
        /// Changes whenever the peaks grow (`PeaksJob.Snapshot.version`) or the track changes.
        public var version: Int
        public var track: Int
        public var duration: Double
        public var playhead: Double
        public var title: String
        public var isDragging: Bool

        public init(peaks: Peaks?, version: Int, track: Int, duration: Double, playhead: Double, title: String, isDragging: Bool = false) {
            self.peaks = peaks
            self.version = version
            self.track = track
            self.duration = duration
            self.playhead = playhead
            self.title = title
            self.isDragging = isDragging
        }
    }

    /// Draws the scrubber's rows in `area`, its columns placed by `geometry` (`geometry(_:duration:zoom:)`).
    public mutating func draw(_ state: State, in area: PixelRect, geometry: ScrubberGeometry, theme: BarTheme, into grid: inout CellGrid) {
        guard area.width > 4, area.height >= 2 else { return }
        let waveform = Self.waveformArea(area)
        if madeFor.map({ $0.version != state.version || $0.track != state.track || $0.columns != waveform.width
                        || $0.rows != waveform.height || $0.geometry != geometry }) ?? true {
            makeDots(state, geometry: geometry, columns: waveform.width, rows: waveform.height)
            madeFor = (state.version, state.track, waveform.width, waveform.height, geometry)
        }
        let played = TerminalCell.rgb(theme.tip)
        let unplayed: UInt32 = 0x5A_6070
        let playheadX = state.duration > 0 ? geometry.x(forTime: min(state.duration, max(0, state.playhead))) : Double(waveform.x)
        let playheadColumn = min(waveform.x + waveform.width - 1, Int(playheadX.rounded(.down)))
        // The track's line: a faint rule where there are no dots yet.
        for row in 0..<waveform.height {
            for column in 0..<waveform.width {
                let x = waveform.x + column
                grid[x, waveform.y + row] = row == waveform.height / 2 && !dots.hasDots(column: column, row: row)
                    ? TerminalCell("\u{2500}", foreground: x < playheadColumn ? played : 0x3A_3F4A) : .blank
            }
        }
        dots.draw(atX: waveform.x, y: waveform.y, into: &grid) { column, _ in waveform.x + column < playheadColumn ? played : unplayed }
        // The playhead: its column bright, over the dots or as a line.
        for row in 0..<waveform.height {
            var cell = grid[playheadColumn, waveform.y + row]
            if cell.scalar == " " || cell.scalar == "\u{2500}" { cell.scalar = "\u{2502}" }
            cell.foreground = state.isDragging ? 0xFFD060 : 0xFFFFFF
            grid[playheadColumn, waveform.y + row] = cell
        }
        // The labels: time / length, then the title.
        let labelY = area.y + area.height - 1
        grid.fill(x: area.x, y: labelY, width: area.width, height: 1, with: .blank)
        let time = TimeLabel.text(seconds: max(0, state.playhead)) + " / " + TimeLabel.text(seconds: max(0, state.duration))
        let after = grid.write(time, x: area.x + 1, y: labelY, foreground: 0xE8ECF4)
        let room = area.x + area.width - 1 - (after + 2)
        if room > 3 {
            let title = state.title.unicodeScalars.count > room ? String(String.UnicodeScalarView(state.title.unicodeScalars.prefix(room - 1))) + "…" : state.title
            grid.write(title, x: after + 2, y: labelY, foreground: 0xA0A8B8)
        }
    }

    /// The overview's dots: each dot column the loudest of the peaks it covers, up and down from the middle.
    private mutating func makeDots(_ state: State, geometry: ScrubberGeometry, columns: Int, rows: Int) {
        dots.clear(columns: columns, rows: rows)
        guard let peaks = state.peaks, peaks.length > 0, state.duration > 0 else { return }
        // Dot column x covers the time from its left edge to its right (two a cell).
        func time(_ dot: Int) -> Double { geometry.time(forX: geometry.left + Double(dot) / 2) }
        let largest = max(1e-6, peaks.largestMagnitude)
        let dotWidth = dots.dotWidth, dotHeight = dots.dotHeight
        let pairsPerSecond = Double(peaks.sampleRate) / Double(peaks.samplesPerPixel)
        let middle = Double(dotHeight - 1) / 2
        for x in 0..<dotWidth {
            let first = Int(time(x) * pairsPerSecond)
            let last = min(peaks.length, max(first + 1, Int(time(x + 1) * pairsPerSecond)))
            guard first < peaks.length else { break }
            var loudest: Float = 0
            for channel in peaks.pairs {
                for index in first..<last { loudest = max(loudest, channel[index].magnitude) }
            }
            let reach = Double(loudest / largest) * middle
            dots.setColumn(x: x, from: Int((middle - reach).rounded()), to: Int((middle + reach).rounded()))
        }
    }
}
