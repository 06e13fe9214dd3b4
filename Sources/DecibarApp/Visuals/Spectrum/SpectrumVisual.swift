import DecibarRender
import DecibarAudio
import DecibarCore

extension SpectrumAnalyzer: BandAnalyzer {}

/// `--mode spectrum`: each channel's spectrum as bars, with the frequencies under them.
final class SpectrumVisual: Visual {
    static let mode = VisualModeDescription(name: "spectrum", summary: "frequency bands, left channel on the left, right on the right", drawsRadial: true, page: .spectrum, pageDrawsItself: true,
                                            settings: SpectrumSettings.rows)

    private let tools: VisualTools
    private(set) var state: SpectrumState

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        let measured = !tools.deterministic
        state = SpectrumState(settings: VisualTools.visualSettings(tools.display)) { rate, bands in
            SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 2, measuredPlan: measured)
        }
    }

    var needs: VisualNeeds { [] }
    var isAtRest: Bool { state.isAtRest }
    var meanValue: Float { state.meanValue }

    func update(_ frame: VisualFrame) { state.update(frame) }

    func draw(_ canvas: VisualCanvas) {
        tools.drawBars(state.field, on: canvas)
        drawFrequencyLabels(canvas)
    }

    /// Frequencies under the bands that hold them, on both halves, in the margin the bars leave.
    private func drawFrequencyLabels(_ canvas: VisualCanvas) {
        guard let labels = tools.labels, let bands = state.bands, tools.radialRenderer == nil else { return }
        let layout = tools.layout
        let y = FrequencyLabels.y(height: canvas.height, maximumBarHeight: layout.maximumHeight(canvasHeight: canvas.height),
                                  orientation: layout.orientation, textHeight: labels.pixelSize)
        // barRects holds this frame's bars (drawn just before).
        FrequencyLabels.place(bandCount: bands.count, band: { bands.band(containing: $0) }, barRects: tools.barRects, width: canvas.width,
                              lowsAtEdges: tools.display[SpectrumSettings.rows.lowsAtEdges], textWidth: { labels.size(of: $0).width }) { text, x in
            labels.draw(text, x: x, y: y, color: FrequencyLabels.color, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        }
    }
}
