import DecibarCore
import Testing

@Suite("Rate and pitch settings")
struct RateAndPitchSettingsTests {
    @Test("steps of 0.25 and 100 cents land on the grid and stop at the ends")
    func steps() {
        var setting = RateAndPitch.normal
        setting = setting.steppingRate(by: 1)
        #expect(setting.rate == 1.25 && setting.pitch == 0)
        setting = setting.steppingPitch(by: 2)
        #expect(setting.pitch == 200 && setting.rate == 1.25)
        #expect(RateAndPitch(rate: 1.1).steppingRate(by: 1).rate == 1.25)
        #expect(RateAndPitch(rate: 0.25).steppingRate(by: -1).rate == 0.25)
        #expect(RateAndPitch(rate: 4).steppingRate(by: 1).rate == 4)
        #expect(RateAndPitch(pitch: 2400).steppingPitch(by: 1).pitch == 2400)
        #expect(RateAndPitch(pitch: -2400).steppingPitch(by: -1).pitch == -2400)
        #expect(RateAndPitch(rate: 9, pitch: -5000) == RateAndPitch(rate: 4, pitch: -2400))
        #expect(RateAndPitch(rate: .nan, pitch: .infinity).isNormal)
    }

    @Test("the label reads like the seed's sliders: two decimals and whole cents with a sign")
    func label() {
        #expect(RateAndPitch(rate: 1.25, pitch: 200).label == "1.25x  +200 cents")
        #expect(RateAndPitch(rate: 0.5, pitch: -1200).label == "0.50x  -1200 cents")
        #expect(RateAndPitch(rate: 1, pitch: 100).label == "1.00x  +100 cents")
        #expect(RateAndPitch(rate: 4, pitch: 0).label == "4.00x  0 cents")
    }

    @Test("pitch in cents is a frequency ratio of 2^(cents/1200)")
    func pitchScale() {
        #expect(RateAndPitch(pitch: 1200).pitchScale == 2)
        #expect(RateAndPitch(pitch: -2400).pitchScale == 0.25)
        #expect(abs(RateAndPitch(pitch: 300).pitchScale - 1.189207115) < 1e-9)
    }
}

@Suite("Playhead map: output frames to file frames")
struct PlayheadMapTests {
    @Test("at one rate, the frame heard a latency behind the output steps back at that rate")
    func steadyRate() {
        var map = PlayheadMap()
        map.restart(outputFrame: 1000, fileFrame: 48000)
        map.note(outputFrame: 1960, fileFrame: 48000 + 960 * 1.5, rate: 1.5)
        map.note(outputFrame: 2920, fileFrame: 48000 + 1920 * 1.5, rate: 1.5)
        #expect(map.fileFrame(atOutput: 2920) == 48000 + 2880)
        #expect(map.fileFrame(atOutput: 2420) == 48000 + 2880 - 750)
        #expect(map.fileFrame(atOutput: 1500) == 48000 + 750)
        // Before the restart's first write: the restart's frame.
        #expect(map.fileFrame(atOutput: 900) == 48000)
        #expect(map.latestFileFrame == 48000 + 2880)
    }

    @Test("across a change of rate, each part of the queue counts at the rate it was written at")
    func rateChange() {
        var map = PlayheadMap()
        map.restart(outputFrame: 0, fileFrame: 0)
        map.note(outputFrame: 1000, fileFrame: 1000, rate: 1)
        map.note(outputFrame: 2000, fileFrame: 3000, rate: 2)
        #expect(map.fileFrame(atOutput: 1500) == 2000)
        #expect(map.fileFrame(atOutput: 500) == 500)
        #expect(map.fileFrame(atOutput: 1000) == 1000)
        // Never before the previous write's end, whatever the rate says.
        map.note(outputFrame: 2100, fileFrame: 3010, rate: 4)
        #expect(map.fileFrame(atOutput: 2050) == 3000)
    }

    @Test("only the last 64 writes are kept; older frames step back at the oldest kept write's rate")
    func capacity() {
        var map = PlayheadMap()
        map.restart(outputFrame: 0, fileFrame: 0)
        for write in 1...100 { map.note(outputFrame: Int64(write * 100), fileFrame: Double(write * 100), rate: 1) }
        #expect(map.fileFrame(atOutput: 9_950) == 9_950)
        #expect(map.fileFrame(atOutput: 3_650) == 3_650)
        map.note(outputFrame: 10_100, fileFrame: 10_300, rate: 3)
        #expect(map.fileFrame(atOutput: 10) == 10)
        #expect(map.fileFrame(atOutput: 10_050) == 10_150)
    }
}
