/// Bars from the levels: symmetric bars, tallest in the middle, as high as the audio is loud.
public struct LevelBarsState: BarVisualState {
    public let settings: VisualSettings
    public private(set) var field: BarField
    /// The automatic sensitivity; it carries across tracks and devices, as the picture does.
    public private(set) var autoSensitivity = AutoSensitivity()

    public init(settings: VisualSettings) {
        self.settings = settings
        field = BarField(settings: settings)
    }

    public mutating func update(_ frame: VisualFrame) {
        field.resize(to: settings.barCount(canvasWidth: frame.canvasWidth))
        let reading = frame.reading
        if reading.frameCount > 0 {
            let scale = settings.levelScale
            if let gain = settings.sensitivity.fixedGain {
                SymmetricBars.fill(&field.targets, level: scale.normalized(reading.combinedRMSDB) * gain,
                                   peak: scale.normalized(reading.combinedPeakDB) * gain)
            } else {
                autoSensitivity.advance(loudestDB: reading.combinedPeakDB, levelDB: reading.combinedRMSDB, dt: frame.dt)
                let full = SymmetricBars.fullScale
                SymmetricBars.fill(&field.targets, level: autoSensitivity.normalized(reading.combinedRMSDB, fullScale: full),
                                   peak: autoSensitivity.normalized(reading.combinedPeakDB, fullScale: full))
            }
        } else if !frame.hasAudio {
            field.fall()
        }
        field.advance(dt: frame.dt, rangeDB: -settings.levelScale.floorDB, beatLevel: frame.beatLevel)
    }
}
