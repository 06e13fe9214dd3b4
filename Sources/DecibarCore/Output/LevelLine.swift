/// The JSON lines `decibar levels` prints, formatted without Foundation.
public enum LevelLine {
    /// `{"t": 1.234, "channels": 2, "rms_db": [-9.03, -9.03], "peak_db": [-6.02, -6.02]}`
    public static func json(time: Double, reading: LevelReading) -> String {
        "{\"t\": \(fixed(time, places: 3)), \"channels\": \(reading.channelCount), "
            + "\"rms_db\": \(list(reading.rmsDB)), \"peak_db\": \(list(reading.peakDB))}"
    }

    static func list(_ values: [Float]) -> String {
        "[" + values.map { fixed(Double($0), places: 2) }.joined(separator: ", ") + "]"
    }

    /// `value` rounded to `places` decimals, as plain decimal text (`-0.00` becomes `0.00`).
    public static func fixed(_ value: Double, places: Int) -> String {
        guard value.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        guard scaled < 9e15 else { return value < 0 ? "-1e15" : "1e15" }
        let whole = Int64(scaled)
        let unit = Int64(scale)
        let integerPart = whole / unit
        let fraction = whole % unit
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard places > 0 else { return sign + String(integerPart) }
        var digits = String(fraction)
        while digits.count < places { digits = "0" + digits }
        return sign + String(integerPart) + "." + digits
    }
}
