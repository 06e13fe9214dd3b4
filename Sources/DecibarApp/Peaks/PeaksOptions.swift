import DecibarCore

/// `peaks`' own options, checked by their kinds.
public struct PeaksOptions: SettingsGroup {
    public static let rows = PeaksOptions()
    static let home = CommandLineHome("peaks", for: [.peaks], elsewhere: "only peaks takes it")

    public init() {}

    public let samplesPerPixel: Setting<Int> = .integer(home, "samples_per_pixel", 2...(1 << 24), default: 256,
        "Audio frames per min/max pair (at least 2).")
    public let bits: Setting<Double> = .numberChoice(home, "bits", [8, 16], default: 16, unit: "bits",
        "Resolution of the values: 8 or 16 bits. peaks.js needs 8.")
}
