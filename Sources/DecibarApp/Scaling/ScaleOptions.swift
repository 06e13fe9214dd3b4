import DecibarCore

/// `scale`'s own options, checked by their kinds.
public struct ScaleOptions: SettingsGroup {
    public static let rows = ScaleOptions()
    static let home = CommandLineHome("scale", for: [.scale], elsewhere: "only scale takes it")

    public init() {}

    public let factor: Setting<Double?> = .number(home, "factor", 0.1...10, unit: "factor",
        "The new duration as a multiple of the old: 0.1 to 10.")
    public let singleChannel: Setting<Bool> = .boolean(home, "single_channel", "Merge the channels into one first (their average).")
    public let keepPitch: Setting<Bool> = .boolean(home, "keep_pitch", "Keep the pitch: stretch with Rubber Band instead of spreading the samples.")
    public let sampleFormat: Setting<SampleFormat?> = .choice(home, "sample_format",
        "Samples in a lossless OUT: s16, s24, s32 or f32 (default: as the input).")
}

extension ScaleOptions {
    /// What the kinds cannot check: the factor is given, the format holds the samples asked for,
    /// and OUT never replaces the input.
    public static func check(_ settings: Configuration, output: String, input: String) throws(CommandFailure) {
        func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
        guard settings[rows.factor] != nil else { throw usage("--factor is required: the new duration as a multiple of the old") }
        let target = ScaleOutputFormat.resolve(output)
        if settings[rows.sampleFormat] == .f32 && target.format.codec == "flac" {
            throw usage("--sample-format f32: flac holds integer samples (s16 or s24)")
        }
        do { try OutputPath.check(target.path, option: "-o", kind: .file, inputs: [input]) } catch { throw usage(error.description) }
    }

    /// Scales `input` into `output` (or an .m4a beside it when its own format cannot be written).
    public static func run(_ settings: Configuration, output: String, input: String) throws {
        let target = ScaleOutputFormat.resolve(output)
        if target.isFallback {
            writeError("cannot write \(output.escapingControlCharacters) in its own format; writing \(target.path.escapingControlCharacters) (AAC) instead")
        }
        try FileScaling(input: input, output: target.path, format: target.format, factor: settings[rows.factor] ?? 1,
                        singleChannel: settings[rows.singleChannel], sampleFormat: settings[rows.sampleFormat],
                        keepsPitch: settings[rows.keepPitch]).run()
    }
}
