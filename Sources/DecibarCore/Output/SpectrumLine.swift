/// The JSON lines of `decibar levels --mode spectrum`: a header naming the bands, then one line
/// of band levels per reading, channel after channel (all of the left's bands low to high, then
/// the right's).
public enum SpectrumLine {
    /// `{"band_edges_hz": [40.0, ...], "bands": 32, "sample_rate": 48000, "channels": 2}`
    public static func header(bands: SpectrumBands, channels: Int) -> String {
        var edges: [UInt8] = []
        for (index, edge) in bands.edges.enumerated() {
            if index > 0 { edges.append(contentsOf: separator) }
            DecimalText.append(edge, places: 1, to: &edges)
        }
        return "{\"band_edges_hz\": [" + String(decoding: edges, as: UTF8.self)
            + "], \"bands\": \(bands.count), \"sample_rate\": \(bands.sampleRate), \"channels\": \(channels)}"
    }

    /// `{"t": 1.234, "bands_db": [...]}`
    public static func json(time: Double, levels: [[Float]]) -> String {
        var bytes: [UInt8] = []
        append(time: time, levels: levels, to: &bytes)
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// The same line, with its newline, appended to `bytes` (reused from line to line).
    public static func append(time: Double, levels: [[Float]], to bytes: inout [UInt8]) {
        bytes.append(contentsOf: timeKey)
        DecimalText.append(time, places: 3, to: &bytes)
        bytes.append(contentsOf: bandsKey)
        var first = true
        for channel in levels {
            for level in channel {
                if !first { bytes.append(contentsOf: separator) }
                first = false
                DecimalText.append(Double(level), places: 2, to: &bytes)
            }
        }
        bytes.append(contentsOf: ending)
    }

    private static let timeKey = Array("{\"t\": ".utf8)
    private static let bandsKey = Array(", \"bands_db\": [".utf8)
    private static let separator = Array(", ".utf8)
    private static let ending = Array("]}\n".utf8)
}
