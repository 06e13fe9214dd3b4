import DecibarCore

extension DisplaySettings {
    /// What of the window's look the outputs draw with: a change restarts them.
    struct OutputLook: Equatable {
        var mode: VisualMode
        var bars: Int?
        var theme: String
        var barWidth: Int?
        var barSpacing: Int?
        var beatAccent: Bool
        var sensitivity: Sensitivity
        var floor: Float
        var attack: Double?
        var release: Double?
        var spectrumFloor: Float
        var lowsAtEdges: Bool
        var fps: Double?
    }

    var outputLook: OutputLook {
        OutputLook(mode: mode, bars: bars, theme: theme, barWidth: barWidth, barSpacing: barSpacing, beatAccent: beatAccent,
                   sensitivity: sensitivity, floor: floor, attack: attack, release: release, spectrumFloor: spectrumFloor,
                   lowsAtEdges: lowsAtEdges, fps: fps)
    }
}
