/// The JSON lines of `decibar levels --mode loudness`, written straight into bytes like the others.
public enum LoudnessLine {
    /// `{"t": 1.0, "momentary_lufs": -23.0, "short_term_lufs": -23.1, "integrated_lufs": -23.0,
    /// "loudness_range_lu": 0.0, "true_peak_dbtp": [-20.0, -20.0]}`; a value under the gate is `null`.
    public static func json(time: Double, reading: LoudnessReading) -> String {
        var bytes: [UInt8] = []
        append(time: time, reading: reading, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The same line, with its newline, appended to `bytes` (reused from line to line).
    public static func append(time: Double, reading: LoudnessReading, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: timeKey)
        DecimalText.append(time, places: 3, to: &bytes)
        appendValue(reading.momentaryLUFS, key: momentaryKey, to: &bytes)
        appendValue(reading.shortTermLUFS, key: shortTermKey, to: &bytes)
        appendValue(reading.integratedLUFS, key: integratedKey, to: &bytes)
        appendValue(reading.loudnessRangeLU, key: rangeKey, to: &bytes)
        bytes.append(contentsOf: truePeakKey)
        for channel in 0 ..< reading.channelCount {
            if channel > 0 { bytes.append(contentsOf: separator) }
            DecimalText.append(reading.truePeakDBTP(channel: channel), places: 2, to: &bytes)
        }
        bytes.append(contentsOf: ending)
    }

    private static func appendValue(_ value: Double?, key: [UInt8], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: key)
        if let value { DecimalText.append(value, places: 2, to: &bytes) } else { bytes.append(contentsOf: null) }
    }

    private static let timeKey = Array("{\"t\": ".utf8)
    private static let momentaryKey = Array(", \"momentary_lufs\": ".utf8)
    private static let shortTermKey = Array(", \"short_term_lufs\": ".utf8)
    private static let integratedKey = Array(", \"integrated_lufs\": ".utf8)
    private static let rangeKey = Array(", \"loudness_range_lu\": ".utf8)
    private static let truePeakKey = Array(", \"true_peak_dbtp\": [".utf8)
    private static let separator = Array(", ".utf8)
    private static let null = Array("null".utf8)
    private static let ending = Array("]}\n".utf8)
}
