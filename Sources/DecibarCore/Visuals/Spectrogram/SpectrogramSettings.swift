/// The spectrogram's settings, in [display]: declared in the mode's folder, registered by its
/// description. The scrubber's spectrogram and the spectrogram command take them too.
public struct SpectrogramSettings: SettingsGroup {
    public static let rows = SpectrogramSettings()

    public init() {}

    public let colorMap: Setting<ColorMap> = .choice(ConfigSection.display, "colormap", default: .magma, for: .picture,
        "Spectrogram colors from quiet to loud: magma, viridis, inferno, plasma (perceptual maps, readable in grey) or theme (the theme's background, center and tip colors).")
    public let floor: Setting<Double> = .number(ConfigSection.display, "spectrogram_floor", -200 ... -20, default: -100, for: .picture, unit: "dB",
        "Spectrogram: the level drawn as the color map's first color, in dB (0 dBFS is its last).")
}
