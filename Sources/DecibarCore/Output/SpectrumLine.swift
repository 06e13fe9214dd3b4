/// The JSON lines of `decibar levels --mode spectrum`: a header naming the bands, then one line
/// of band levels per reading, channel after channel (all of the left's bands low to high, then
/// the right's).
public enum SpectrumLine {
    /// `{"band_edges_hz": [40.0, ...], "bands": 32, "sample_rate": 48000, "channels": 2}`
    public static func header(bands: SpectrumBands, channels: Int) -> String {
        "{\"band_edges_hz\": [" + bands.edges.map { LevelLine.fixed($0, places: 1) }.joined(separator: ", ")
            + "], \"bands\": \(bands.count), \"sample_rate\": \(bands.sampleRate), \"channels\": \(channels)}"
    }

    /// `{"t": 1.234, "bands_db": [...]}`
    public static func json(time: Double, levels: [[Float]]) -> String {
        "{\"t\": \(LevelLine.fixed(time, places: 3)), \"bands_db\": \(LevelLine.list(levels.flatMap { $0 }))}"
    }
}
