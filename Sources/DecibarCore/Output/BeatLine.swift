/// The JSON lines of `decibar levels --mode beats` and of a daemon's `subscribe beats`:
/// `{"t": 12.345, "beat": true, "bpm": 120.02, "confidence": 0.93}` for a beat, and the same
/// without `"beat"` for the tempo while no beat comes (`"bpm": null` while none is known).
public enum BeatLine {
    public static func json(time: Double, isBeat: Bool, bpm: Double?, confidence: Double) -> String {
        var bytes: [UInt8] = []
        append(time: time, isBeat: isBeat, bpm: bpm, confidence: confidence, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The same line, with its newline, appended to `bytes` (reused from line to line).
    public static func append(time: Double, isBeat: Bool, bpm: Double?, confidence: Double, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: timeKey)
        DecimalText.append(time, places: 3, to: &bytes)
        if isBeat { bytes.append(contentsOf: beatKey) }
        bytes.append(contentsOf: bpmKey)
        if let bpm {
            DecimalText.append(bpm, places: 2, to: &bytes)
        } else {
            bytes.append(contentsOf: null)
        }
        bytes.append(contentsOf: confidenceKey)
        DecimalText.append(confidence, places: 2, to: &bytes)
        bytes.append(contentsOf: ending)
    }

    private static let timeKey = Array("{\"t\": ".utf8)
    private static let beatKey = Array(", \"beat\": true".utf8)
    private static let bpmKey = Array(", \"bpm\": ".utf8)
    private static let null = Array("null".utf8)
    private static let confidenceKey = Array(", \"confidence\": ".utf8)
    private static let ending = Array("}\n".utf8)
}
