import DecibarCore

/// Which picture each `--mode` draws: the one place that names them all.
enum VisualCatalog {
    static func make(_ mode: VisualMode, tools: VisualTools) -> any Visual {
        switch mode {
        case .bars: LevelBarsVisual(tools: tools)
        case .spectrum: SpectrumVisual(tools: tools)
        case .meter: LevelMeterVisual(tools: tools)
        }
    }
}
