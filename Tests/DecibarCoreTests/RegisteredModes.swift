import DecibarCore

/// The application registers the modes (its catalog); the core's tests register stand-ins of
/// the same names, so the settings that take a mode have words to check against.
enum RegisteredModes {
    static func prepare() { _ = registered }

    private static let groups: [String: any SettingsGroup] = [
        "spectrum": SpectrumSettings.rows, "spectrogram": SpectrogramSettings.rows, "scope": ScopeSettings.rows,
        "meter": MeterSettings.rows, "milkdrop": MilkdropSettings.rows,
    ]

    private static let registered: Void = {
        for name in ["bars", "spectrum", "spectrogram", "scope", "meter", "milkdrop"] {
            // A mode's settings are the core's (its folder's group), so its stand-in brings them.
            VisualModes.register(VisualModeDescription(name: name, summary: "the \(name) stand-in", settings: groups[name]))
        }
    }()
}
