/// The spectrum's settings, in [display]: declared in the mode's folder, registered by its description.
public struct SpectrumSettings: SettingsGroup {
    public static let rows = SpectrumSettings()

    public init() {}

    public let floor: Setting<Double> = .number(ConfigSection.display, "spectrum_floor", -160 ... -10, default: -70, unit: "dB",
        "Spectrum level drawn as an empty bar, in dB (the top is 0 dB).")
    public let lowsAtEdges: Setting<Bool> = .boolean(ConfigSection.display, "lows_at_edges",
        "Spectrum: put the low frequencies at the window's edges instead of the center.")
}
