/// The JSON lines of `decibar levels --mode stereo` and a daemon's `subscribe stereo`:
/// `{"t": 1.0, "correlation": 0.98, "balance": -0.01, "width": 0.02}`.
public enum StereoLine {
    public static func json(time: Double, reading: StereoReading) -> String {
        var bytes: [UInt8] = []
        append(time: time, reading: reading, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The same line, with its newline, appended to `bytes` (reused from line to line).
    public static func append(time: Double, reading: StereoReading, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: timeKey)
        DecimalText.append(time, places: 3, to: &bytes)
        bytes.append(contentsOf: correlationKey)
        DecimalText.append(reading.correlation, places: 3, to: &bytes)
        bytes.append(contentsOf: balanceKey)
        DecimalText.append(reading.balance, places: 3, to: &bytes)
        bytes.append(contentsOf: widthKey)
        DecimalText.append(reading.width, places: 3, to: &bytes)
        bytes.append(contentsOf: ending)
    }

    private static let timeKey = Array("{\"t\": ".utf8)
    private static let correlationKey = Array(", \"correlation\": ".utf8)
    private static let balanceKey = Array(", \"balance\": ".utf8)
    private static let widthKey = Array(", \"width\": ".utf8)
    private static let ending = Array("}\n".utf8)
}
