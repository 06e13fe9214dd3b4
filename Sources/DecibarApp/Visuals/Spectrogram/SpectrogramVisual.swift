import DecibarAudio
import DecibarCore
import DecibarRender

/// `--mode spectrogram`: the last five seconds of frequencies, scrolling left (or up), on a log
/// axis from 20 Hz to 20 kHz with its labels beside the plot and a dB legend at the right.
final class SpectrogramVisual: Visual {
    static let mode = VisualModeDescription(name: "spectrogram", summary: "the last 5 s of frequencies scrolling by, on a log axis",
                                            settings: SpectrogramSettings.rows)

    private let tools: VisualTools
    private(set) var state: SpectrogramState
    private let renderer: SpectrogramRenderer
    private var layout: SpectrogramLayout?
    private var ticks: [(text: String, tick: PixelRect, textX: Int, textY: Int)] = []
    private var legendColors: [Color]
    private var changedLastFrame = 0

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        let measured = !tools.deterministic
        state = SpectrogramState { rate in
            FFTWTransform(length: SpectrogramState.fftLength, measured: measured).map {
                SpectrogramAnalysis(sampleRate: rate, rowCount: SpectrogramState.rowCount, transform: $0)
            }
        }
        renderer = try SpectrogramRenderer(shaders: tools.shaders)
        let colors = tools.display[SpectrogramSettings.rows.colorMap].table(count: 256, theme: tools.theme)
        renderer.setColorMap(colors)
        legendColors = stride(from: 0, to: colors.count, by: 8).map { colors[$0] }
    }

    var needs: VisualNeeds { [] }
    var isAtRest: Bool { changedLastFrame == 0 && state.made > 0 }
    var meanValue: Float { 0 }

    func update(_ frame: VisualFrame) {}
    var wantsReleases: Bool { true }
    func released(_ buffer: AudioBuffer) { state.add(buffer) }

    private var floorDB: Float { Float(tools.display[SpectrogramSettings.rows.floor]) }

    func draw(_ canvas: VisualCanvas) {
        let vertical = tools.display.orientation == .top
        let labels = tools.labels
        if layout?.width != canvas.width || layout?.height != canvas.height || layout?.vertical != vertical {
            let textHeight = labels?.pixelSize ?? 12
            let made = SpectrogramLayout(width: canvas.width, height: canvas.height, vertical: vertical,
                                         textWidth: labels?.size(of: "20k").width ?? 24, textHeight: textHeight,
                                         legendTextWidth: labels?.size(of: "-100").width ?? 30)
            layout = made
            ticks = made.ticks { text in labels.map { let size = $0.size(of: text); return (size.width, size.height) } ?? (text.count * 7, 12) }
        }
        guard let layout else { return }
        changedLastFrame = state.takeChanged()
        renderer.upload(state.columns, rows: SpectrogramState.rowCount, capacity: SpectrogramState.capacity, newest: state.newest,
                        count: changedLastFrame, floorDB: floorDB)
        renderer.draw(in: layout.plot, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight, newest: state.newest,
                      shown: SpectrogramState.shownColumns, vertical: vertical)
        tools.shapes.removeAll(keepingCapacity: true)
        for tick in ticks { tools.shapes.append((tick.tick, FrequencyLabels.color)) }
        // The legend: the color map from the floor (bottom) to 0 dB (top), in steps.
        let legend = layout.legend
        let steps = legendColors.count
        for (index, color) in legendColors.enumerated() {
            let top = legend.y + legend.height * (steps - 1 - index) / steps
            let bottom = legend.y + legend.height * (steps - index) / steps
            tools.shapes.append((PixelRect(x: legend.x, y: top, width: legend.width, height: bottom - top), color))
        }
        tools.rects.draw(tools.shapes, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        guard let labels else { return }
        for tick in ticks {
            labels.draw(tick.text, x: tick.textX, y: tick.textY, color: FrequencyLabels.color, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        }
        let x = legend.x + legend.width + 4
        labels.draw("0 dB", x: x, y: legend.y - labels.pixelSize / 2, color: FrequencyLabels.color, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        tools.textBytes.removeAll(keepingCapacity: true)
        DecimalText.append(integer: Int(floorDB.rounded()), to: &tools.textBytes)
        labels.draw(characters: tools.textBytes, x: x, y: legend.y + legend.height - labels.pixelSize / 2, color: FrequencyLabels.color,
                    canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
    }
}
