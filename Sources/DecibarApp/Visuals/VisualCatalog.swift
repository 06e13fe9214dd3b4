import DecibarCore
import DecibarRender

/// Which picture each `--mode` draws: the one place that names them all.
enum VisualCatalog {
    /// Fails for a picture whose library or files are not installed (said in the user's terms).
    static func make(_ mode: VisualMode, tools: VisualTools) throws(RenderError) -> any Visual {
        switch mode {
        case .bars: LevelBarsVisual(tools: tools)
        case .spectrum: SpectrumVisual(tools: tools)
        case .meter: LevelMeterVisual(tools: tools)
        case .milkdrop: try MilkdropVisual(tools: tools)
        case .spectrogram: try SpectrogramVisual(tools: tools)
        case .scope: try StereoScopeVisual(tools: tools)
        }
    }
}
