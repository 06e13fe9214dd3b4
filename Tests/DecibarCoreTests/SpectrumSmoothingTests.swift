import DecibarCore
import Foundation
import Testing

@Suite("Spectrum smoothing")
struct SpectrumSmoothingTests {
    let bands = SpectrumBands(sampleRate: 48000, count: 24)

    @Test("a band waits 2 / its width in seconds, at most 0.5 s: a one-bin band at 48 kHz 170.7 ms")
    func timeConstants() throws {
        #expect(bands.bins[0].count == 1)
        let first = try #require(BandPowerAverager(bands: bands, channelCount: 1).timeConstants.first)
        #expect(abs(first - 2 / 11.71875) < 1e-12)
        #expect(BandPowerAverager.timeConstant(bandwidthHz: 1000) == 0.002)
        #expect(BandPowerAverager.timeConstant(bandwidthHz: 1) == 0.5)
        // Wider bands wait less.
        let times = BandPowerAverager(bands: bands, channelCount: 1).timeConstants
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 >= $1 })
    }

    @Test("power, not dB, is averaged: -20 then -10 dB for one time constant reads 10·log10(0.01 + 0.09·(1 - 1/e))")
    func averagesPower() {
        var averager = BandPowerAverager(bands: bands, channelCount: 1)
        let tau = averager.timeConstants[0]
        averager.advance(toward: [Array(repeating: -20, count: bands.count)], dt: 1 / 60)
        #expect(averager.levels[0][0] == -20)
        averager.advance(toward: [Array(repeating: -10, count: bands.count)], dt: tau)
        #expect(abs(averager.levels[0][0] - -11.7463) < 0.001)
    }

    @Test("alternating -10 and -30 dB averages to their power mean (-12.97 dB), not their dB mean (-20)")
    func unbiased() {
        var averager = BandPowerAverager(bands: bands, channelCount: 1)
        for step in 0 ..< 2000 {
            averager.advance(toward: [Array(repeating: step % 2 == 0 ? -10 : -30, count: bands.count)], dt: 1 / 1000)
        }
        // The power mean of 0.1 and 0.001 is 0.0505: -12.97 dB. Averaging dB would read -20.
        #expect(abs(averager.levels[0][0] - -12.97) < 0.2)
    }

    @Test("the floor, silence and a reset")
    func floorAndReset() {
        var averager = BandPowerAverager(bands: bands, channelCount: 2)
        averager.advance(toward: Array(repeating: Array(repeating: SpectrumBands.floorDB, count: bands.count), count: 2), dt: 0.1)
        #expect(averager.levels.allSatisfy { $0.allSatisfy { $0 == SpectrumBands.floorDB } })
        averager.advance(toward: Array(repeating: Array(repeating: -40, count: bands.count), count: 2), dt: 0.01)
        #expect(averager.levels[1][0] < -40 && averager.levels[1][0] > -60)
        averager.reset()
        averager.advance(toward: Array(repeating: Array(repeating: -6, count: bands.count), count: 2), dt: 0.01)
        #expect(averager.levels[1][0] == -6)
    }

    @Test("the smoother rises from its floor like a bar: one 60 Hz frame covers 10 % of the way (-70 to -20 dB: -65)")
    func smootherRises() {
        var smoother = SpectrumSmoother(bands: bands, channelCount: 2, floorDB: -70)
        smoother.advance(toward: Array(repeating: Array(repeating: -20, count: bands.count), count: 2), dt: 1 / 60)
        for channel in 0 ..< 2 {
            for band in 0 ..< bands.count { #expect(abs(smoother.levels[channel][band] - -65) < 0.001) }
        }
    }

    @Test("levels under the floor hold at the floor")
    func smootherFloor() {
        var smoother = SpectrumSmoother(bands: bands, channelCount: 1, floorDB: -50)
        for _ in 0 ..< 100 {
            smoother.advance(toward: [Array(repeating: SpectrumBands.floorDB, count: bands.count)], dt: 1 / 60)
        }
        #expect(smoother.levels[0].allSatisfy { $0 == -50 })
    }
}
