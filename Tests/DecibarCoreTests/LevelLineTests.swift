import DecibarCore
import Testing

@Suite("levels JSON lines")
struct LevelLineTests {
    @Test("numbers are rounded to fixed decimals")
    func fixed() {
        #expect(LevelLine.fixed(-9.0309, places: 2) == "-9.03")
        #expect(LevelLine.fixed(-6.0206, places: 2) == "-6.02")
        #expect(LevelLine.fixed(-0.001, places: 2) == "0.00")
        #expect(LevelLine.fixed(-160, places: 2) == "-160.00")
        #expect(LevelLine.fixed(1.0005, places: 3) == "1.001")
        #expect(LevelLine.fixed(12.5, places: 0) == "13")
        #expect(LevelLine.fixed(.nan, places: 2) == "0")
    }

    @Test("one line per reading in the documented shape")
    func line() {
        let reading = LevelReading(rmsDB: [-9.0309, -160], peakDB: [-6.0206, -160], frameCount: 1600,
                                   combinedRMSDB: -12, combinedPeakDB: -6)
        #expect(LevelLine.json(time: 1.5, reading: reading)
            == #"{"t": 1.500, "channels": 2, "rms_db": [-9.03, -160.00], "peak_db": [-6.02, -160.00]}"#)
    }
}
