import DecibarCore
import Testing

@Suite("levels JSON lines")
struct LevelLineTests {
    @Test("one line per reading in the documented shape")
    func line() {
        let reading = LevelReading(rmsDB: [-9.0309, -160], peakDB: [-6.0206, -160], frameCount: 1600,
                                   combinedRMSDB: -12, combinedPeakDB: -6)
        #expect(LevelLine.json(time: 1.5, reading: reading)
            == #"{"t": 1.500, "channels": 2, "rms_db": [-9.03, -160.00], "peak_db": [-6.02, -160.00]}"#)
    }
}

@Suite("Decimal text into bytes")
struct DecimalTextTests {
    func text(_ value: Double, _ places: Int) -> String {
        var bytes: [UInt8] = []
        DecimalText.append(value, places: places, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("fixed decimals, no negative zero, no exponent")
    func examples() {
        #expect(text(0, 2) == "0.00")
        #expect(text(-0.001, 2) == "0.00")
        #expect(text(-9.0309, 2) == "-9.03")
        #expect(text(-160, 2) == "-160.00")
        #expect(text(1.2345, 3) == "1.235" || text(1.2345, 3) == "1.234")
        #expect(text(12.5, 0) == "13")
        #expect(text(0.05, 1) == "0.1")
        #expect(text(.nan, 2) == "0")
        #expect(text(1e20, 2) == "1e15")
        #expect(text(-9.0309, 2) == "-9.03" && text(-6.0206, 2) == "-6.02" && text(1.0005, 3) == "1.001")
    }

    /// An independent, slow reference: integer part and zero-padded fraction as Strings.
    func reference(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0 ..< places { scale *= 10 }
        let whole = Int64((abs(value) * scale).rounded())
        let unit = Int64(scale)
        let sign = value < 0 && whole != 0 ? "-" : ""
        guard places > 0 else { return sign + String(whole) }
        let fraction = String(whole % unit)
        return sign + String(whole / unit) + "." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    @Test("writes what a plain String reference writes, over many values")
    func matchesReference() {
        var state: UInt64 = 7
        for _ in 0 ..< 5000 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let value = (Double(state >> 11) / Double(1 << 53) - 0.5) * 400
            for places in [0, 1, 2, 3, 6] { #expect(text(value, places) == reference(value, places: places)) }
        }
    }

    @Test("small values are padded with zeros after the point; whole numbers keep their sign")
    func paddingAndIntegers() {
        #expect(text(0.03, 2) == "0.03")
        #expect(text(-0.007, 3) == "-0.007")
        #expect(text(0.000001, 6) == "0.000001")
        #expect(text(123456789.125, 3) == "123456789.125")
        #expect(text(-1e20, 2) == "-1e15")
        func integer(_ value: Int) -> String {
            var bytes: [UInt8] = []
            DecimalText.append(integer: value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
        for value in [0, 7, -7, 10, -100, 65535, Int.max, Int.min] { #expect(integer(value) == String(value)) }
    }

    @Test("a spectrum line: time, then every channel's bands in order")
    func spectrumLine() {
        #expect(SpectrumLine.json(time: 1.5, levels: [[-1, -2.5], [-160, 0]])
            == "{\"t\": 1.500, \"bands_db\": [-1.00, -2.50, -160.00, 0.00]}")
    }
}

@Suite("Loudness lines")
struct LoudnessLineTests {
    @Test("every figure with two decimals, gated ones null, true peaks per channel")
    func line() {
        var reading = LoudnessReading(channelCount: 2)
        reading.momentaryLUFS = -23.004
        reading.shortTermLUFS = LoudnessReading.gated(-71)
        reading.integratedLUFS = LoudnessReading.gated(-23.1)
        reading.loudnessRangeLU = 5.25
        reading.setTruePeak(linear: 0.1, channel: 0)
        reading.setTruePeak(linear: 0, channel: 1)
        #expect(LoudnessLine.json(time: 1, reading: reading)
            == #"{"t": 1.000, "momentary_lufs": -23.00, "short_term_lufs": null, "integrated_lufs": -23.10, "loudness_range_lu": 5.25, "true_peak_dbtp": [-20.00, -160.00]}"#)
        #expect(reading.truePeakDBTP == -20)
        #expect(LoudnessReading.gated(-.infinity) == nil && LoudnessReading.gated(.nan) == nil && LoudnessReading.gated(-70) == -70)
    }
}
