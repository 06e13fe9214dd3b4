/// The meter's settings, in [display]: declared in the mode's folder, registered by its description.
public struct MeterSettings: SettingsGroup {
    public static let rows = MeterSettings()

    public init() {}

    public let ballistics: Setting<MeterBallistics> = .choice(ConfigSection.display, "ballistics", default: .digital,
        "Meter peak bar: digital (falls at 40 dB/s) or iec (IEC 60268-18: 20 dB in 1.7 s).")
    public let scale: Setting<MeterScale> = .choice(ConfigSection.display, "meter_scale", default: .dbfs,
        "Meter scale: dbfs (-70...0, levels first) or lufs (-59...0 with ticks at the -23 and -14 LUFS targets).")
    public let loudnessTargets: Setting<[Double]> = .numbers(ConfigSection.display, "loudness_targets", -59...0, unit: "LUFS", option: "loudness-target",
        "Loudness targets marked on the meter's loudness bars, in LUFS (e.g. [-23, -14]: EBU R128 and streaming). Repeat --loudness-target for more.")
}
