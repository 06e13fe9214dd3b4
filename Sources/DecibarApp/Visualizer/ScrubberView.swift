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
        var peaksKey: String
        var duration: Double
        var playhead: Double
        var title: String
        var decibels: Bool
        /// Pointer x while hovering; the label shows the time under it.
        var hoverX: Double?
        /// While dragging the label follows the playhead and the hover line is hidden.
        var isDragging = false
    }

    let options: ScrubberSettings
    let colors = ScrubberTheme.default
    private let rects: RectRenderer
    private let text: TextRenderer
    private var cached: (key: String, heights: [Float], analyzed: Int) = ("", [], 0)

    init(options: ScrubberSettings, rects: RectRenderer, text: TextRenderer) {
        self.options = options
        self.rects = rects
        self.text = text
    }

    func draw(_ state: State, layout: PlayLayout) {
        let width = layout.width, height = layout.height
        let geometry = layout.scrubberGeometry(duration: state.duration)
        let columnCount = geometry.columnCount(barWidth: options.barWidth, spacing: options.barSpacing)
        let key = "\(state.peaksKey)/\(columnCount)/\(state.decibels)"
        if key != cached.key {
            cached = (key, [], 0)
            if let peaks = state.peaks {
                let totalPairs = Int((state.duration * Double(peaks.sampleRate) / Double(peaks.samplesPerPixel)).rounded(.up))
                let columns = PeaksRescaler.columns(peaks, count: columnCount, totalLength: max(totalPairs, peaks.length),
                                                    filter: options.filter)
                let scale: ScrubberScale = state.decibels ? .decibels(floor: options.noiseFloor) : .linear
                let largest = peaks.largestMagnitude
                cached.heights = columns.map { $0.map { scale.height(magnitude: $0.magnitude, largest: largest) } ?? 0 }
                cached.analyzed = columns.prefix { $0 != nil }.count
            }
        }
        let playheadX = geometry.x(forTime: state.playhead)
        var shapes: [(PixelRect, Color)] = []
        let columnRects = layout.scrubberColumns(heights: cached.heights, barWidth: options.barWidth,
                                                 spacing: options.barSpacing)
        for (index, rect) in columnRects.enumerated() {
            let color = index >= cached.analyzed ? colors.pending
                : Double(rect.x) < playheadX ? colors.played : colors.unplayed
            shapes.append((rect, color))
        }
        // Columns not analyzed yet: a thin line, so the track's length is visible at once.
        let center = layout.scrubberTop + layout.scrubberHeight / 2
        let pendingStart = layout.scrubberLeft + cached.analyzed * (options.barWidth + options.barSpacing)
        if pendingStart < layout.scrubberLeft + layout.scrubberWidth {
            shapes.append((PixelRect(x: pendingStart, y: center, width: layout.scrubberLeft + layout.scrubberWidth - pendingStart,
                                     height: 1), colors.pending))
        }
        if options.fillIndicator {
            shapes.append((PixelRect(x: layout.scrubberLeft, y: layout.scrubberTop,
                                     width: max(0, Int(playheadX) - layout.scrubberLeft), height: layout.scrubberHeight),
                           colors.played.withAlpha(0.18)))
        } else {
            shapes.append((PixelRect(x: Int(playheadX) - 1, y: layout.scrubberTop - 4, width: 2, height: layout.scrubberHeight + 8),
                           colors.playhead))
        }
        if let hoverX = state.hoverX, !state.isDragging {
            shapes.append((PixelRect(x: Int(hoverX), y: layout.scrubberTop, width: 1, height: layout.scrubberHeight),
                           Color(hex: 0xFFFFFF, alpha: 0.35)))
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: height)

        // Labels: elapsed, title, total; the time under the pointer.
        let elapsed = TimeLabel.text(seconds: state.playhead)
        let total = TimeLabel.text(seconds: state.duration)
        text.draw(elapsed, x: layout.scrubberLeft, y: layout.labelTop, color: colors.label, canvasWidth: width, canvasHeight: height)
        let totalSize = text.size(of: total)
        text.draw(total, x: layout.scrubberLeft + layout.scrubberWidth - totalSize.width, y: layout.labelTop,
                  color: colors.label, canvasWidth: width, canvasHeight: height)
        let titleSize = text.size(of: state.title)
        text.draw(state.title, x: (width - titleSize.width) / 2, y: layout.labelTop, color: colors.label,
                  canvasWidth: width, canvasHeight: height)
        // While dragging, the time the drop will seek to.
        if let labelX = state.isDragging ? playheadX : state.hoverX {
            let hover = TimeLabel.text(seconds: geometry.time(forX: labelX))
            let hoverSize = text.size(of: hover)
            let x = min(max(0, Int(labelX) - hoverSize.width / 2), width - hoverSize.width)
            text.draw(hover, x: x, y: max(0, layout.scrubberTop - hoverSize.height - 6), color: colors.label,
                      canvasWidth: width, canvasHeight: height)
        }
        text.endFrame()
    }
}
