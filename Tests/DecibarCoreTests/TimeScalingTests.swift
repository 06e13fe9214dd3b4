import DecibarCore
import Testing

/// Seed 001's worked examples, and the streaming scaler against a whole-array version written
/// here the way the seed writes it.
struct TimeScalingTests {
    static let vector: [Double] = [3, 5, 1, 8, 4, 56, 33, 4, 77, 42, 84, 25, 12, 6, 13, 15]

    /// The seed's `scaleToD` on a whole array: control points, a padded copy, `A[b] + a * (A[b+1] - A[b])`.
    static func wholeArray(_ samples: [Double], length: Int, smoothly: Bool = true) -> [Double] {
        guard length > 0 else { return [] }
        var control: [Double]
        if smoothly, length > samples.count {
            let denominator = Double(length - 1) / Double(samples.count - 1)
            control = (0 ..< length).map { n in
                let x = Double(n) / denominator
                let t = min(max(x - x.rounded(.down), 0), 1)
                return x.rounded(.down) + t * t * (3 - 2 * t)
            }
        } else {
            let end = Double(samples.count - 1)
            control = (0 ..< length).map { length > 1 ? Double($0) * (end / Double(length - 1)) : 0 }
        }
        if control.count > 1 { control[control.count - 1] = Double(samples.count - 1) }
        let padded = samples + [0]
        return control.map { point in
            let b = Int(point), a = point - Double(Int(point))
            return padded[b] + a * (padded[b + 1] - padded[b])
        }
    }

    /// Streams `samples` (interleaved, `channels` wide) through the scaler in blocks of `block` frames.
    static func streamed(_ samples: [Double], channels: Int = 1, length: Int, block: Int, smoothly: Bool = true) -> [Double] {
        let frames = samples.count / channels
        var scaler = LinearTimeScaler(ramp: TimeScaleRamp(inputCount: frames, outputCount: length, smoothly: smoothly), channelCount: channels)
        var output: [Double] = []
        let input = samples.map(Float.init)
        var start = 0
        while start < frames {
            let end = min(frames, start + block)
            input[start * channels ..< end * channels].withUnsafeBufferPointer { scaler.process($0) { output.append(contentsOf: $0) } }
            start = end
        }
        return output
    }

    static func rounded(_ values: [Double]) -> [Int] { values.map { Int($0.rounded(.toNearestOrEven)) } }

    @Test("the ramp for 0…9 in 5 points is [0, 2.25, 4.5, 6.75, 9]")
    func ramp() {
        let ramp = TimeScaleRamp(inputCount: 10, outputCount: 5)
        #expect((0 ..< 5).map(ramp.controlPoint) == [0, 2.25, 4.5, 6.75, 9])
        #expect(!ramp.isSmooth)
        #expect(TimeScaleRamp(inputCount: 10, factor: 0.5).outputCount == 5)
        #expect(TimeScaleRamp(inputCount: 480_000, factor: 2).outputCount == 960_000)
        #expect(TimeScaleRamp(inputCount: 7, factor: 1.5).outputCount == 10)
    }

    @Test("the seed's 16 samples to 10 and to 9 points")
    func seedExamples() {
        #expect(Self.rounded(Self.streamed(Self.vector, length: 10, block: 16)) == [3, 2, 7, 56, 14, 65, 84, 16, 8, 15])
        #expect(Self.rounded(Self.streamed(Self.vector, length: 9, block: 16)) == [3, 2, 5, 42, 40, 58, 22, 7, 15])
        let ramp = TimeScaleRamp(inputCount: 16, outputCount: 10)
        #expect(abs(ramp.controlPoint(1) - 5.0 / 3) < 1e-12)
    }

    @Test("half-to-even rounding of the seed's ties")
    func rounding() {
        let values = [0.3, 0.5, 0.7, 1.3, 1.5, 1.7, 2.3, 2.5, 2.7]
        #expect(values.map { SampleRounding.integer($0 / 32768, bits: 16) } == [0, 0, 1, 1, 2, 2, 2, 2, 3])
        #expect(SampleRounding.integer(1.5, bits: 16) == 32767)
        #expect(SampleRounding.integer(-1.5, bits: 16) == -32768)
        #expect(SampleRounding.integer(-0.5 / 2_147_483_648, bits: 32) == 0)
        #expect(SampleRounding.integer(.nan, bits: 16) == 0)
    }

    @Test("every length from 1 to 20, fed in blocks of 1, 3, 7 and all 16, equals the whole-array version exactly")
    func streamingEqualsWholeArray() {
        for length in 1 ... 20 {
            let expected = Self.wholeArray(Self.vector, length: length)
            for block in [1, 3, 7, 16] {
                #expect(Self.streamed(Self.vector, length: length, block: block) == expected, "length \(length), blocks of \(block)")
            }
        }
        // Stretching uses smoothstep; without it, the plain ramp.
        #expect(TimeScaleRamp(inputCount: 16, outputCount: 20).isSmooth)
        #expect(Self.streamed(Self.vector, length: 20, block: 3, smoothly: false) == Self.wholeArray(Self.vector, length: 20, smoothly: false))
    }

    @Test("channels are scaled each from its own samples and come out interleaved, as the seed interleaves them")
    func interleaving() {
        let second = Self.vector.map { 100 - $0 }
        let third = Self.vector.reversed().map { $0 * 2 }
        let interleaved = (0 ..< 16).flatMap { [Self.vector[$0], second[$0], third[$0]] }
        for length in [5, 16, 23] {
            let perChannel = [Self.vector, second, Array(third)].map { Self.wholeArray($0, length: length) }
            let expected = (0 ..< length).flatMap { n in perChannel.map { $0[n] } }
            for block in [1, 3, 7] {
                #expect(Self.streamed(interleaved, channels: 3, length: length, block: block) == expected, "length \(length), blocks of \(block)")
            }
        }
    }

    @Test("one input sample, a zero length, and input beyond the stated count")
    func edges() {
        #expect(Self.streamed([7], length: 4, block: 1) == [7, 7, 7, 7])
        #expect(Self.streamed(Self.vector, length: 0, block: 4) == [])
        var scaler = LinearTimeScaler(ramp: TimeScaleRamp(inputCount: 4, outputCount: 8), channelCount: 1)
        var output: [Double] = []
        [Float](repeating: 1, count: 10).withUnsafeBufferPointer { scaler.process($0) { output.append(contentsOf: $0) } }
        #expect(output.count == 8 && scaler.receivedFrames == 10 && scaler.isComplete)
    }
}
