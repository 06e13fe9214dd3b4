import DecibarRender
import DecibarCore

/// `--mode bars`: symmetric bars as high as the audio is loud.
final class LevelBarsVisual: Visual {
    static let mode = VisualModeDescription(name: "bars", summary: "symmetric level bars", drawsRadial: true, page: .bars, pageDrawsItself: true)

    private let tools: VisualTools
    private(set) var state: LevelBarsState

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        state = LevelBarsState(settings: VisualTools.visualSettings(tools.display))
    }

    var needs: VisualNeeds { [] }
    var isAtRest: Bool { state.isAtRest }
    var meanValue: Float { state.meanValue }

    func update(_ frame: VisualFrame) { state.update(frame) }

    func draw(_ canvas: VisualCanvas) { tools.drawBars(state.field, on: canvas) }
}
