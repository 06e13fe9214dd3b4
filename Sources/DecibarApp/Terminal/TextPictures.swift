import DecibarAudio
import DecibarCore

/// The modes the terminal draws in characters, each from the same state as the window's picture
/// (`LevelBarsState`, `SpectrumState`...): bars and spectrum in eighth blocks, the spectrogram in
/// half blocks, the scope in braille, the meter in left blocks. Each state is made the first time
/// its mode shows and kept, as `Visualizer` keeps its pictures.
final class TextPictures {
    /// The modes drawn in characters; the others need real pixels (`--graphics kitty|sixel`) or
    /// fall back to half-block pixels of the renderer's picture.
    static let modes: Set<String> = ["bars", "spectrum", "spectrogram", "scope", "meter"]

    let display: DisplaySettings
    let theme: BarTheme
    private(set) var mode: VisualMode
    private let settings: VisualSettings
    private var clock = VisualClock()
    private var bars: LevelBarsState?
    private var spectrum: SpectrumState?
    private var spectrogram: SpectrogramState?
    private var scope: StereoScopeState?
    private var meter: MeterState?
    private var dots = BrailleDots(columns: 0, rows: 0)
    private let spectrogramColors: [UInt32]
    /// Columns the spectrogram made last frame: none means it has nothing new to show.
    private var spectrogramChanged = 0

    init(display: DisplaySettings) {
        self.display = display
        theme = display.barTheme
        mode = display.mode
        settings = VisualTools.visualSettings(display)
        spectrogramColors = display[SpectrogramSettings.rows.colorMap].table(count: 256, theme: display.barTheme).map(TerminalCell.rgb)
    }

    static func draws(_ mode: VisualMode) -> Bool { modes.contains(mode.rawValue) }

    func show(_ mode: VisualMode) { self.mode = mode }

    /// Releases what the feed holds that is heard by `now`, handing each buffer to the pictures that want every one.
    func release(_ feed: AudioFeed, heardBy now: Double) -> LevelReading {
        switch mode.rawValue {
        case "spectrogram":
            if spectrogram == nil { spectrogram = Self.makeSpectrogram() }
            return feed.release(heardBy: now) { buffer, _ in self.spectrogram?.add(buffer) }
        case "scope":
            if scope == nil { scope = StereoScopeState(autoGain: display[ScopeSettings.rows.autoGain]) }
            return feed.release(heardBy: now) { buffer, _ in self.scope?.add(buffer) }
        default:
            return feed.release(heardBy: now)
        }
    }

    private static func makeSpectrogram() -> SpectrogramState {
        SpectrogramState { rate in
            FFTWTransform(length: SpectrogramState.fftLength, measured: true).map {
                SpectrogramAnalysis(sampleRate: rate, rowCount: SpectrogramState.rowCount, transform: $0)
            }
        }
    }

    /// Moves the shown picture on by the frame; `columns` is what the bars spread over.
    func update(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, columns: Int) {
        if mode.rawValue == "meter" { feed.measureLoudness { LoudnessMeter() } }
        // Bars are counted in cells here: as many as asked, else as fit two columns and a gap each.
        let barColumns = settings.bars == nil && display.barLayout.fixedWidth == nil ? TextBars.fittingCount(columns: columns) * 3 : columns
        let frame = clock.frame(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: barColumns)
        switch mode.rawValue {
        case "bars":
            if bars == nil { bars = LevelBarsState(settings: fitted(columns: columns)) }
            bars?.update(frame)
        case "spectrum":
            if spectrum == nil {
                spectrum = SpectrumState(settings: fitted(columns: columns)) { rate, bands in
                    SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 2, measuredPlan: true)
                }
            }
            spectrum?.update(frame)
        case "scope": scope?.update(frame)
        case "spectrogram": spectrogramChanged = spectrogram?.takeChanged() ?? 0
        case "meter":
            if meter == nil { meter = MeterState(settings: settings) }
            meter?.update(frame)
        default: break
        }
    }

    /// The settings with bars counted in cells: as many as asked, else as many as fit 2 columns and a gap.
    private func fitted(columns: Int) -> VisualSettings {
        var fitted = settings
        if fitted.bars == nil, let fixed = display.barLayout.fixedWidth {
            fitted.bars = max(1, (columns + fixed.spacing) / max(1, fixed.bar + fixed.spacing))
        } else if fitted.bars == nil {
            fitted.bars = TextBars.fittingCount(columns: columns)
        }
        return fitted
    }

    /// True when nothing drawn would change: the terminal is then not written to at all.
    var isAtRest: Bool {
        switch mode.rawValue {
        case "bars": bars?.isAtRest ?? true
        case "spectrum": spectrum?.isAtRest ?? true
        case "meter": meter?.isAtRest ?? true
        case "spectrogram": spectrogramChanged == 0 && (spectrogram?.made ?? 0) > 0
        case "scope": (scope?.count ?? 0) == 0
        default: false
        }
    }

    /// Draws the shown picture into `area` of `grid` (already blank).
    func draw(in area: PixelRect, into grid: inout CellGrid) {
        let fixed = display.barLayout.fixedWidth
        switch mode.rawValue {
        case "bars":
            if let field = bars?.field {
                TextBars.draw(field.values, caps: display.caps ? field.caps.values : [], in: area, orientation: display.barLayout.orientation,
                              theme: theme, barWidth: fixed?.bar, spacing: fixed?.spacing, into: &grid)
            }
        case "spectrum":
            if let field = spectrum?.field {
                // Frequency labels on a row of their own, under the bars (over them when they hang), as the window has them.
                let orientation = display.barLayout.orientation
                let labelled = area.height >= 8 && spectrum?.bands != nil
                var bars = area
                if labelled {
                    bars.height -= 1
                    if orientation == .top { bars.y += 1 }
                }
                TextBars.draw(field.values, caps: display.caps ? field.caps.values : [], in: bars, orientation: orientation,
                              theme: theme, barWidth: fixed?.bar, spacing: fixed?.spacing, into: &grid)
                if labelled, let bands = spectrum?.bands {
                    drawFrequencyLabels(bands: bands, count: field.values.count, bars: bars,
                                        row: orientation == .top ? area.y : area.y + area.height - 1, into: &grid)
                }
            }
        case "spectrogram":
            if let spectrogram {
                TextSpectrogram.draw(spectrogram, in: area, colors: spectrogramColors, floorDB: Float(display[SpectrogramSettings.rows.floor]), into: &grid)
            }
        case "scope":
            if let scope { TextScope.draw(scope, in: area, theme: theme, dots: &dots, into: &grid) }
        case "meter":
            if let meter { TextMeter.draw(meter, in: area, theme: theme, into: &grid) }
        default: break
        }
    }

    private func drawFrequencyLabels(bands: SpectrumBands, count: Int, bars: PixelRect, row: Int, into grid: inout CellGrid) {
        let fixed = display.barLayout.fixedWidth
        let place = TextBars.columns(count: count, in: bars, width: fixed?.bar, spacing: fixed?.spacing)
        let rects = (0 ..< count).map { PixelRect(x: place.first - bars.x + $0 * place.step, y: 0, width: place.width, height: 1) }
        let color = TerminalCell.rgb(FrequencyLabels.color)
        FrequencyLabels.place(bandCount: bands.count, band: { bands.band(containing: $0) }, barRects: rects, width: bars.width,
                              lowsAtEdges: display[SpectrumSettings.rows.lowsAtEdges], textWidth: { $0.count }) { text, x in
            grid.write(text, x: bars.x + x, y: row, foreground: color)
        }
    }

    /// 0...1, for the frame log.
    var meanValue: Float {
        switch mode.rawValue {
        case "bars": bars?.meanValue ?? 0
        case "spectrum": spectrum?.meanValue ?? 0
        default: 0
        }
    }
}
