/// The JSON lines `decibar levels` prints, written straight into bytes like the spectrum's.
public enum LevelLine {
    /// `{"t": 1.234, "channels": 2, "rms_db": [-9.03, -9.03], "peak_db": [-6.02, -6.02]}`
    public static func json(time: Double, reading: LevelReading) -> String {
        var bytes: [UInt8] = []
        append(time: time, reading: reading, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The same line, with its newline, appended to `bytes` (reused from line to line).
    public static func append(time: Double, reading: LevelReading, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: timeKey)
        DecimalText.append(time, places: 3, to: &bytes)
        bytes.append(contentsOf: channelsKey)
        DecimalText.append(integer: reading.channelCount, to: &bytes)
        bytes.append(contentsOf: rmsKey)
        for channel in 0 ..< reading.channelCount {
            if channel > 0 { bytes.append(contentsOf: separator) }
            DecimalText.append(Double(reading.rmsDB(channel: channel)), places: 2, to: &bytes)
        }
        bytes.append(contentsOf: peakKey)
        for channel in 0 ..< reading.channelCount {
            if channel > 0 { bytes.append(contentsOf: separator) }
            DecimalText.append(Double(reading.peakDB(channel: channel)), places: 2, to: &bytes)
        }
        bytes.append(contentsOf: ending)
    }

    private static let timeKey = Array("{\"t\": ".utf8)
    private static let channelsKey = Array(", \"channels\": ".utf8)
    private static let rmsKey = Array(", \"rms_db\": [".utf8)
    private static let peakKey = Array("], \"peak_db\": [".utf8)
    private static let separator = Array(", ".utf8)
    private static let ending = Array("]}\n".utf8)
}
