import DecibarCore
import Testing

@Suite("True-peak gate")
struct TruePeakGateTests {
    /// Runs one block through the gate as the meter does; `found` stands in for the interpolator's peak.
    @discardableResult
    func step(_ gate: inout TruePeakGate, _ samples: [Float], found: [Double]? = nil) -> Bool {
        samples.withUnsafeBufferPointer { block in
            let frames = samples.count / gate.channelCount
            let measured = gate.needsMeasuring(block, frames: frames)
            if measured, let found {
                for (channel, peak) in found.enumerated() { gate.record(peak: peak, channel: channel) }
            }
            gate.advance(past: block, frames: frames, measured: measured)
            return measured
        }
    }

    func history(_ gate: TruePeakGate) -> [Float] { gate.withHistory { Array($0) } }

    @Test func silenceAtTheStartIsPassedOver() {
        var gate = TruePeakGate(channelCount: 1, gain: 2)
        #expect(!step(&gate, [Float](repeating: 0, count: 256)))
        #expect(!gate.interpolatorIsCurrent)
        #expect(gate.peak(channel: 0) == 0)
    }

    @Test func aBlockIsPassedOverOnlyWhenItAndTheFramesBeforeItStayUnderPeakOverGain() {
        var gate = TruePeakGate(channelCount: 1, gain: 2)
        #expect(step(&gate, [Float](repeating: 0.5, count: 256), found: [0.6]))
        #expect(gate.peak(channel: 0) == 0.6)
        // 0.29 * 2 is under 0.6, but the block's first samples still depend on the 0.5s before it.
        #expect(step(&gate, [Float](repeating: 0.29, count: 256), found: [0.5]))
        #expect(gate.peak(channel: 0) == 0.6)
        #expect(!step(&gate, [Float](repeating: 0.29, count: 256)))
        #expect(!gate.interpolatorIsCurrent)
        // Exactly at the bound is still measured: the gain is rounded up a hair.
        #expect(step(&gate, [Float](repeating: 0.3, count: 256), found: [0.3]))
        #expect(gate.interpolatorIsCurrent)
    }

    @Test func anyChannelThatCanRiseMakesTheBlockMeasured() {
        var gate = TruePeakGate(channelCount: 2, gain: 1.5)
        #expect(step(&gate, [Float](repeating: 0.8, count: 512), found: [0.9, 0.9]))
        #expect(step(&gate, [Float](repeating: 0.1, count: 512), found: [0.1, 0.1]))
        var loudRight = [Float](repeating: 0.1, count: 512)
        for frame in 0 ..< 256 where frame == 100 { loudRight[frame * 2 + 1] = 0.61 }
        #expect(step(&gate, loudRight, found: [0.1, 0.7]))
        #expect(gate.peak(channel: 0) == 0.9 && gate.peak(channel: 1) == 0.9)
        #expect(!step(&gate, [Float](repeating: 0.1, count: 512)))
    }

    @Test func notANumberIsMeasured() {
        var gate = TruePeakGate(channelCount: 1, gain: 2)
        #expect(step(&gate, [1, 1, 1, 1], found: [1]))
        #expect(step(&gate, [0, .nan, 0, 0], found: [1]))
    }

    @Test func theHistoryIsTheLastThirtyTwoFramesInterleaved() {
        var gate = TruePeakGate(channelCount: 2, gain: 2)
        #expect(history(gate) == [Float](repeating: 0, count: 64))
        let block = (0 ..< 512).map { Float($0) }
        step(&gate, block, found: [0, 0])
        #expect(history(gate) == Array(block[448 ..< 512]))
        // A block shorter than the history moves the older frames to the front.
        step(&gate, [1000, 1001, 1002, 1003], found: [0, 0])
        #expect(history(gate) == Array(block[452 ..< 512]) + [1000, 1001, 1002, 1003])
    }
}
