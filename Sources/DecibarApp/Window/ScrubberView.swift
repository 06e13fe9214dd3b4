import DecibarCore
import DecibarRender
import Foundation

/// Draws the waveform scrubber under the visualizer: columns from the overview (played and
/// unplayed colors, a line where nothing is analyzed yet), the playhead or fill, the hover line,
/// and the time labels with the title between them.
final class ScrubberView {
    struct State {
        var peaks: Peaks?
        /// Changes whenever `peaks` changes (with the track), so columns are recomputed only then.
        var peaksKey: PeaksKey
        var duration: Double
        var playhead: Double
        var title: String
        var decibels: Bool
        /// Pointer x while hovering; the label shows the time under it.
        var hoverX: Double?
        /// While dragging the label follows the playhead and the hover line is hidden.
        var isDragging = false
        /// A streamed track: the parts downloaded, as fractions of the file (seed 002's progress
        /// shading); nil for a file on disk.
        var downloaded: [ClosedRange<Double>]?
        /// An endless stream: "live" where the length would be.
        var isLive = false
        /// Added to the times the labels show (a radio's rolling scrubber starts minutes in).
        var timeOffset: Double = 0
        /// The stretch shown when the track can be zoomed (nil: all of it); zoomed in, the
        /// layout has a minimap.
        var view: ScrubberZoom?
        /// The track's chapters: ticks on the scrubber, and the title under the pointer.
        var chapters: [Chapter] = []
        /// The A-B loop's ends as far as they are set (a shift-drag's stretch while it is made).
        var loop: (start: Double?, end: Double?) = (nil, nil)
        /// A finer overview of the stretch shown, from `start` seconds on, when the stored one is
        /// coarser than a column there (see `RangeOverview`).
        var finer: (peaks: Peaks, start: Double)?
        /// With `--scrubber spectrogram`: the track's spectrogram as far as it is analyzed, and its version.
        var spectrogram: (result: SpectrogramOverview.Result, version: Int)?
    }

    /// Which overview the columns were made from: the track, and the version of its peaks.
    struct PeaksKey: Equatable {
        var track: Int
        var version: Int
    }

    /// What the cached columns depend on.
    private struct ColumnsKey: Equatable {
        var peaks: PeaksKey
        var columnCount: Int
        var decibels: Bool
        /// The pairs shown (fractional positions in the overview they come from).
        var first: Double
        var last: Double
        /// Where the finer overview they come from starts (nil: the stored one), and its pair size.
        var finer: (start: Double, samplesPerPixel: Int)?

        static func == (a: ColumnsKey, b: ColumnsKey) -> Bool {
            a.peaks == b.peaks && a.columnCount == b.columnCount && a.decibels == b.decibels && a.first == b.first
                && a.last == b.last && a.finer?.start == b.finer?.start && a.finer?.samplesPerPixel == b.finer?.samplesPerPixel
        }
    }

    /// Columns made for a key, kept until it changes; storage reused (a following view changes
    /// every frame, and a frame allocates nothing).
    private struct Columns {
        var key: ColumnsKey?
        var heights: [Float] = []
        var analyzed = 0
        var pairs: [PeakPair?] = []
    }

    let options: ScrubberSettings
    let colors = ScrubberTheme.default
    private let rects: RectRenderer
    private let text: TextRenderer
    private var cached = Columns()
    /// The whole track, for the minimap.
    private var whole = Columns()
    /// Storage reused every frame.
    private var columnRects: [PixelRect] = []
    private var shapes: [(PixelRect, Color)] = []
    private var labelBytes: [UInt8] = []
    /// `--scrubber spectrogram`: its renderer, the columns made for what is shown, and what they were made for.
    private let spectrogramRenderer: SpectrogramRenderer?
    private var spectrogramColumns: [Float] = []
    private var spectrogramKey: (track: Int, version: Int, count: Int, from: Double, to: Double)?

    /// `shaders` are needed for a spectrogram scrubber (without them it shows the waveform).
    init(options: ScrubberSettings, rects: RectRenderer, text: TextRenderer, shaders: ShaderLibrary? = nil) {
        self.options = options
        self.rects = rects
        self.text = text
        if options.kind == .spectrogram, let shaders, let renderer = try? SpectrogramRenderer(shaders: shaders) {
            renderer.setColorMap(options.colorMap.table(count: 256, theme: .default))
            spectrogramRenderer = renderer
        } else {
            spectrogramRenderer = nil
        }
    }

    /// Whether it draws the track's spectrogram (and so wants one made).
    var showsSpectrogram: Bool { spectrogramRenderer != nil }

    /// Draws the spectrogram of the stretch shown into the scrubber; false when there is none yet.
    private func drawSpectrogram(_ state: State, layout: PlayLayout, geometry: ScrubberGeometry) -> Bool {
        guard let renderer = spectrogramRenderer, let (result, version) = state.spectrogram, state.duration > 0 else { return false }
        let count = max(2, layout.scrubberWidth)
        let from = geometry.start / state.duration, to = (geometry.start + geometry.span) / state.duration
        let key = (state.peaksKey.track, version, count, from, to)
        if spectrogramKey.map({ $0 != key }) ?? true {
            spectrogramKey = key
            result.history.columns(count: count, from: from, to: to, totalEntries: result.expectedEntries, into: &spectrogramColumns)
            renderer.upload(spectrogramColumns, rows: SpectrogramState.rowCount, capacity: count, newest: count - 1, count: count,
                            floorDB: options.spectrogramFloor)
        }
        renderer.draw(in: PixelRect(x: layout.scrubberLeft, y: layout.scrubberTop, width: layout.scrubberWidth, height: layout.scrubberHeight),
                      canvasWidth: layout.width, canvasHeight: layout.height, newest: count - 1, shown: count, vertical: false)
        return true
    }

    func draw(_ state: State, layout: PlayLayout) {
        let width = layout.width, height = layout.height
        let geometry = state.view.map { layout.scrubberGeometry(zoom: $0) } ?? layout.scrubberGeometry(duration: state.duration)
        let columnCount = geometry.columnCount(barWidth: options.barWidth, spacing: options.barSpacing)
        // Unzoomed, exactly as before zooming existed: the whole overview.
        let zoomed = !(state.view?.isWhole ?? true)
        make(&cached, state, columnCount: columnCount, from: zoomed ? geometry.start : 0, to: zoomed ? geometry.start + geometry.span : nil)
        let playheadX = geometry.x(forTime: state.playhead)
        shapes.removeAll(keepingCapacity: true)
        if let downloaded = state.downloaded {
            // Behind the columns: a light band over what has arrived, and a firmer line under it.
            for part in downloaded {
                let left = Int(geometry.x(forTime: part.lowerBound * state.duration).rounded(.down))
                let right = Int(geometry.x(forTime: part.upperBound * state.duration).rounded(.up))
                guard right > left else { continue }
                shapes.append((PixelRect(x: left, y: layout.scrubberTop, width: right - left, height: layout.scrubberHeight),
                               colors.unplayed.withAlpha(0.12)))
                shapes.append((PixelRect(x: left, y: layout.scrubberTop + layout.scrubberHeight - 3, width: right - left, height: 3),
                               colors.unplayed.withAlpha(0.55)))
            }
        }
        if drawSpectrogram(state, layout: layout, geometry: geometry) {
            // What is still to play, a little darker.
            let from = max(layout.scrubberLeft, Int(playheadX)), to = layout.scrubberLeft + layout.scrubberWidth
            if to > from {
                shapes.append((PixelRect(x: from, y: layout.scrubberTop, width: to - from, height: layout.scrubberHeight), Color(hex: 0x000000, alpha: 0.35)))
            }
        } else {
            layout.scrubberColumns(heights: cached.heights, barWidth: options.barWidth, spacing: options.barSpacing, into: &columnRects)
            for (index, rect) in columnRects.enumerated() {
                let color = index >= cached.analyzed ? colors.pending
                    : Double(rect.x) < playheadX ? colors.played : colors.unplayed
                shapes.append((rect, color))
            }
        }
        // Columns not analyzed yet: a thin line, so the track's length is visible at once.
        let center = layout.scrubberTop + layout.scrubberHeight / 2
        let pendingStart = layout.scrubberLeft + cached.analyzed * (options.barWidth + options.barSpacing)
        if state.spectrogram == nil || !showsSpectrogram, pendingStart < layout.scrubberLeft + layout.scrubberWidth {
            shapes.append((PixelRect(x: pendingStart, y: center, width: layout.scrubberLeft + layout.scrubberWidth - pendingStart,
                                     height: 1), colors.pending))
        }
        if options.fillIndicator {
            shapes.append((PixelRect(x: layout.scrubberLeft, y: layout.scrubberTop,
                                     width: max(0, Int(playheadX) - layout.scrubberLeft), height: layout.scrubberHeight),
                           colors.played.withAlpha(0.18)))
        } else if state.playhead >= geometry.start && state.playhead <= geometry.start + geometry.span {
            // (Zoomed elsewhere, the minimap shows where it is.)
            shapes.append((PixelRect(x: Int(playheadX) - 1, y: layout.scrubberTop - 4, width: 2, height: layout.scrubberHeight + 8),
                           colors.playhead))
        }
        addLoop(state.loop, layout: layout, geometry: geometry)
        // Chapters: a tick over the scrubber and a faint line through it where each starts.
        for chapter in state.chapters where chapter.start > 0 && chapter.start >= geometry.start && chapter.start <= geometry.start + geometry.span {
            let x = Int(geometry.x(forTime: chapter.start).rounded())
            shapes.append((PixelRect(x: x - 1, y: layout.scrubberTop - 7, width: 3, height: 6), colors.label))
            shapes.append((PixelRect(x: x, y: layout.scrubberTop, width: 1, height: layout.scrubberHeight), colors.label.withAlpha(0.25)))
        }
        if let hoverX = state.hoverX, !state.isDragging {
            shapes.append((PixelRect(x: Int(hoverX), y: layout.scrubberTop, width: 1, height: layout.scrubberHeight),
                           Color(hex: 0xFFFFFF, alpha: 0.35)))
        }
        if layout.minimapHeight > 0 { addMinimap(state, layout: layout, columnCount: columnCount, geometry: geometry) }
        rects.draw(shapes, canvasWidth: width, canvasHeight: height)

        // Labels: elapsed, title, total; the time under the pointer. Times change every second, so
        // they are drawn glyph by glyph (no new string or texture per value).
        drawTime(state.playhead + state.timeOffset, x: layout.scrubberLeft, y: layout.labelTop, width: width, height: height)
        if state.isLive {
            let live = "live"
            text.draw(live, x: layout.scrubberLeft + layout.scrubberWidth - text.size(of: live).width, y: layout.labelTop,
                      color: colors.played, canvasWidth: width, canvasHeight: height)
        } else {
            drawTime(state.duration, alignedRightAt: layout.scrubberLeft + layout.scrubberWidth, y: layout.labelTop,
                     width: width, height: height)
        }
        let titleSize = text.size(of: state.title)
        text.draw(state.title, x: (width - titleSize.width) / 2, y: layout.labelTop, color: colors.label,
                  canvasWidth: width, canvasHeight: height)
        // While dragging, the time the drop will seek to.
        if let labelX = state.isDragging ? playheadX : state.hoverX {
            labelBytes.removeAll(keepingCapacity: true)
            TimeLabel.append(seconds: geometry.time(forX: labelX) + state.timeOffset, to: &labelBytes)
            let hoverSize = text.size(ofCharacters: labelBytes)
            // The chapter there, after the time.
            let chapter = state.chapters.index(at: geometry.time(forX: labelX)).map { state.chapters[$0].title }
            let chapterWidth = chapter.map { text.size(of: $0).width + 10 } ?? 0
            let x = min(max(0, Int(labelX) - hoverSize.width / 2), width - hoverSize.width - chapterWidth)
            let y = max(0, layout.scrubberTop - hoverSize.height - 9)
            text.draw(characters: labelBytes, x: x, y: y, color: colors.label, canvasWidth: width, canvasHeight: height)
            if let chapter {
                text.draw(chapter, x: x + hoverSize.width + 10, y: y, color: colors.label, canvasWidth: width, canvasHeight: height)
            }
        }
        text.endFrame()
    }

    /// The A-B loop: a band over its stretch and a line at each end set (A alone: its line).
    private func addLoop(_ loop: (start: Double?, end: Double?), layout: PlayLayout, geometry: ScrubberGeometry) {
        let left = loop.start.map { geometry.x(forTime: $0) }
        let right = loop.end.map { geometry.x(forTime: $0) }
        let low = Double(layout.scrubberLeft), high = Double(layout.scrubberLeft + layout.scrubberWidth)
        if let left, let right {
            let from = Int(max(low, left).rounded(.down)), to = Int(min(high, right).rounded(.up))
            if to > from {
                shapes.append((PixelRect(x: from, y: layout.scrubberTop, width: to - from, height: layout.scrubberHeight),
                               colors.loop.withAlpha(0.16)))
            }
        }
        for edge in [left, right].compactMap({ $0 }) where edge >= low && edge <= high {
            shapes.append((PixelRect(x: Int(edge.rounded()) - 1, y: layout.scrubberTop - 4, width: 2, height: layout.scrubberHeight + 8),
                           colors.loop))
        }
    }

    /// Makes `columns` again when what they show changed: the overview from `start` seconds to
    /// `end` (nil: the whole track, as long as the overview if that is longer).
    private func make(_ columns: inout Columns, _ state: State, columnCount: Int, from start: Double, to end: Double?) {
        // A zoomed stretch from the finer overview when there is one covering it.
        let finer = end.flatMap { end in
            state.finer.flatMap { $0.start <= start && $0.start + $0.peaks.duration >= min(end, state.duration) - 0.001 ? $0 : nil }
        }
        let source = finer?.peaks ?? state.peaks
        let offset = finer?.start ?? 0
        let pairsPerSecond = source.map { Double($0.sampleRate) / Double($0.samplesPerPixel) } ?? 0
        let totalPairs = (state.duration * pairsPerSecond).rounded(.up)
        let last = end.map { ($0 - offset) * pairsPerSecond } ?? max(totalPairs, Double(state.peaks?.length ?? 0))
        let key = ColumnsKey(peaks: state.peaksKey, columnCount: columnCount, decibels: state.decibels,
                             first: (start - offset) * pairsPerSecond, last: last,
                             finer: finer.map { ($0.start, $0.peaks.samplesPerPixel) })
        guard key != columns.key else { return }
        columns.key = key
        columns.heights.removeAll(keepingCapacity: true)
        columns.analyzed = 0
        guard let peaks = source, let whole = state.peaks else { return }
        PeaksRescaler.columns(peaks, count: columnCount, from: key.first, to: max(key.first + 1, key.last), filter: options.filter,
                              into: &columns.pairs)
        let scale: ScrubberScale = state.decibels ? .decibels(floor: options.noiseFloor) : .linear
        // The whole track's loudest sets the scale, so a finer stretch stands as tall as it did.
        let largest = whole.largestMagnitude
        for pair in columns.pairs { columns.heights.append(pair.map { scale.height(magnitude: $0.magnitude, largest: largest) } ?? 0) }
        columns.analyzed = columns.pairs.prefix { $0 != nil }.count
    }

    /// The minimap: the whole track in small, played and unplayed, with the scrubber's stretch
    /// outlined on it.
    private func addMinimap(_ state: State, layout: PlayLayout, columnCount: Int, geometry: ScrubberGeometry) {
        make(&whole, state, columnCount: columnCount, from: 0, to: nil)
        let map = layout.scrubberGeometry(duration: state.duration)
        let playheadX = map.x(forTime: state.playhead)
        layout.minimapColumns(heights: whole.heights, barWidth: options.barWidth, spacing: options.barSpacing, into: &columnRects)
        for (index, rect) in columnRects.enumerated() where index < whole.analyzed {
            shapes.append((rect, (Double(rect.x) < playheadX ? colors.played : colors.unplayed).withAlpha(0.6)))
        }
        let left = Int(map.x(forTime: geometry.start).rounded(.down))
        let right = max(left + 2, Int(map.x(forTime: geometry.start + geometry.span).rounded(.up)))
        let top = layout.minimapTop, height = layout.minimapHeight
        shapes.append((PixelRect(x: left, y: top, width: right - left, height: height), Color(hex: 0xFFFFFF, alpha: 0.12)))
        let outline = Color(hex: 0xFFFFFF, alpha: 0.6)
        shapes.append((PixelRect(x: left, y: top, width: right - left, height: 1), outline))
        shapes.append((PixelRect(x: left, y: top + height - 1, width: right - left, height: 1), outline))
        shapes.append((PixelRect(x: left, y: top, width: 1, height: height), outline))
        shapes.append((PixelRect(x: right - 1, y: top, width: 1, height: height), outline))
        shapes.append((PixelRect(x: Int(playheadX), y: top, width: 1, height: height), colors.playhead))
    }

    /// A time label starting at `x`, or ending at `alignedRightAt`.
    private func drawTime(_ seconds: Double, x: Int = 0, alignedRightAt right: Int? = nil, y: Int, width: Int, height: Int) {
        labelBytes.removeAll(keepingCapacity: true)
        TimeLabel.append(seconds: seconds, to: &labelBytes)
        let left = right.map { $0 - text.size(ofCharacters: labelBytes).width } ?? x
        text.draw(characters: labelBytes, x: left, y: y, color: colors.label, canvasWidth: width, canvasHeight: height)
    }
}
