import DecibarCore
import Foundation
import Testing

@Suite("Cutting a stretch into pieces and joining them")
struct PieceAssemblerTests {
    @Test("a 40 s file at 1.5 is cut into three pieces of 13.3 s, each read half a second further on both sides")
    func plan() {
        let plan = PitchScalingPlan(inputCount: 1_920_000, factor: 1.5, sampleRate: 48000)
        #expect(plan.outputCount == 2_880_000)
        #expect(plan.pieces.map(\.start) == [0, 640_000, 1_280_000])
        #expect(plan.pieces.map(\.end) == [640_000, 1_280_000, 1_920_000])
        #expect(plan.pieces.map(\.readStart) == [0, 616_000, 1_256_000])
        #expect(plan.pieces.map(\.readEnd) == [664_000, 1_304_000, 1_920_000])
        #expect(plan.pieces.map(\.outputOrigin) == [0, 924_000, 1_884_000])
        #expect(plan.joinOutput(1) == 960_000 && plan.joinOutput(2) == 1_920_000)
        // Short files stay whole.
        #expect(PitchScalingPlan(inputCount: 48000 * 20, factor: 2, sampleRate: 48000).pieces.count == 1)
    }

    /// A piece's output: the ideal stretched tone over the piece's output span, `late` frames late
    /// (as an unaligned stretcher would give it), `missing` frames short at its end.
    func piece(_ piece: PitchScalingPlan.Piece, plan: PitchScalingPlan, late: Int, missing: Int = 0, tone: (Int) -> Float) -> [Float] {
        let first = piece.outputOrigin
        let last = Int((Double(piece.readEnd) * plan.factor).rounded()) - missing
        return (first ..< last).flatMap { frame in [tone(frame - late), tone(frame - late) * 0.5] }
    }

    @Test("pieces that come out late by different amounts are realigned, the tone continues exactly, and the length is exact")
    func realigns() {
        let plan = PitchScalingPlan(inputCount: 1_920_000, factor: 1.5, sampleRate: 48000)
        let tone = { (frame: Int) -> Float in Float(0.5 * sin(2 * Double.pi * 441 * Double(frame) / 48000)) }
        var assembler = PieceAssembler(plan: plan, channelCount: 2, sampleRate: 48000)
        var output: [Float] = []
        for (piece, late) in zip(plan.pieces, [0, -250, 0]) {
            assembler.add(self.piece(piece, plan: plan, late: late, missing: piece.index == 2 ? 100 : 0, tone: tone)) { output.append(contentsOf: $0) }
        }
        assembler.finish { output.append(contentsOf: $0) }
        #expect(output.count == 2 * plan.outputCount)
        // 441 Hz repeats every 48000/441 frames; an offset that lines the phases up may differ from
        // the lateness by whole periods, so the check is on the signal itself.
        #expect(assembler.offsets.count == 2 && assembler.correlations.allSatisfy { $0 > 0.999 }, "\(assembler.offsets) \(assembler.correlations)")
        var worst: Float = 0
        for frame in 0 ..< plan.outputCount - 100 {
            worst = max(worst, abs(output[frame * 2] - tone(frame)), abs(output[frame * 2 + 1] - tone(frame) * 0.5))
        }
        #expect(worst < 0.01, "the joined tone is off by up to \(worst)")
        // The last piece came out 100 frames short: silence fills the exact length.
        #expect(output.suffix(200).allSatisfy { $0 == 0 })
    }

    @Test("between unrelated sounds the crossfade keeps the power (equal power), between the same sound the amplitude (equal gain)")
    func keepsPower() {
        let plan = PitchScalingPlan(inputCount: 48000 * 30, factor: 1, sampleRate: 48000)
        #expect(plan.pieces.count == 2)
        // Noise of the same power in each piece, unrelated between them.
        var generator = SystemRandomNumberGenerator()
        let noise = { (count: Int) in (0 ..< count).map { _ in Float.random(in: -0.5 ... 0.5, using: &generator) } }
        var assembler = PieceAssembler(plan: plan, channelCount: 1, sampleRate: 48000)
        var output: [Float] = []
        for piece in plan.pieces { assembler.add(noise(piece.readEnd - piece.readStart)) { output.append(contentsOf: $0) } }
        assembler.finish { output.append(contentsOf: $0) }
        let join = plan.joinOutput(1)
        let power = { (start: Int, count: Int) in output[start ..< start + count].reduce(0) { $0 + Double($1 * $1) } / Double(count) }
        let steady = power(join - 48000, 24000)
        let crossfade = power(join - assembler.crossfade / 2, assembler.crossfade)
        #expect(abs(assembler.correlations[0]) < 0.2)
        #expect(abs(10 * log10(crossfade / steady)) < 0.5, "the crossfade is \(10 * log10(crossfade / steady)) dB from the rest")
    }
}
