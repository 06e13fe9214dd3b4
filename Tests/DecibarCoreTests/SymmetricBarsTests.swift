import DecibarCore
import Foundation
import Testing

@Suite("Symmetric bar shape")
struct SymmetricBarsTests {
    func expectClose(_ actual: [Float], _ expected: [Float], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) { #expect(abs(a - e) < 1e-4, "\(actual) vs \(expected)", sourceLocation: sourceLocation) }
    }

    // level 0.2, peak 0.3: edges (0.2)^1.2 = 0.14496, center (0.3 * 2.5)^1.2 = 0.70807.
    @Test("1 bar") func one() { expectClose(SymmetricBars.values(level: 0.2, peak: 0.3, count: 1), [0.70807]) }
    @Test("2 bars") func two() { expectClose(SymmetricBars.values(level: 0.2, peak: 0.3, count: 2), [0.70807, 0.70807]) }
    @Test("3 bars") func three() {
        expectClose(SymmetricBars.values(level: 0.2, peak: 0.3, count: 3), [0.14496, 0.70807, 0.14496])
    }

    @Test("7 bars") func seven() {
        expectClose(SymmetricBars.values(level: 0.2, peak: 0.3, count: 7),
                    [0.14496, 0.28371, 0.47033, 0.70807, 0.47033, 0.28371, 0.14496])
    }

    @Test("64 bars follow the formula and mirror around the center")
    func sixtyFour() {
        let values = SymmetricBars.values(level: 0.1, peak: 0.25, count: 64)
        #expect(values.count == 64)
        for index in 0 ..< 32 {
            let n = Double(index) / 31
            let amplitude = 0.1 * (1 - n) + 0.25 * n
            let expected = Float(min(1, pow(amplitude * (1 + 1.5 * n), 1.2)))
            #expect(abs(values[index] - expected) < 1e-5)
            #expect(values[index] == values[63 - index])
        }
        #expect(values[31] == values.max())
    }

    @Test("values stay within 0...1, also for loud input and empty counts")
    func clamped() {
        #expect(SymmetricBars.values(level: 1, peak: 1, count: 5).allSatisfy { $0 == 1 })
        #expect(SymmetricBars.values(level: 0, peak: 0, count: 5).allSatisfy { $0 == 0 })
        #expect(SymmetricBars.values(level: 0.5, peak: 0.5, count: 0).isEmpty)
    }

    @Test("dB range normalization")
    func levelScale() {
        let scale = LevelScale()
        #expect(scale.normalized(-60) == 0)
        #expect(scale.normalized(-160) == 0)
        #expect(scale.normalized(0) == 1)
        #expect(scale.normalized(6) == 1)
        #expect(abs(scale.normalized(-9.03) - 0.8495) < 1e-4)
        #expect(scale.normalized(.nan) == 0)
    }
}
