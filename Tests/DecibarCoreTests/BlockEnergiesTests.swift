import DecibarCore
import Foundation
import Testing

@Suite("Momentary and short-term loudness from 100 ms block energies")
struct BlockEnergiesTests {
    @Test("steady blocks read their own loudness; a window not yet full counts the missing blocks as silence")
    func windows() {
        var blocks = BlockEnergies()
        #expect(blocks.loudness(ofLast: 4) == -.infinity)
        let energy = BlockEnergies.energy(lufs: -23)
        for _ in 0 ..< 4 { blocks.append(energy) }
        #expect(abs(blocks.loudness(ofLast: 4) - -23) < 1e-12)
        // 4 of 30 blocks: 10 log10(4/30) = -8.75 dB lower.
        #expect(abs(blocks.loudness(ofLast: 30) - (-23 + 10 * (4.0 / 30).log10Value)) < 1e-12)
        for _ in 0 ..< 26 { blocks.append(energy) }
        #expect(abs(blocks.loudness(ofLast: 30) - -23) < 1e-12)
    }

    @Test("the oldest block leaves the window as a new one comes")
    func sliding() {
        var blocks = BlockEnergies()
        blocks.append(BlockEnergies.energy(lufs: -10))
        for _ in 0 ..< 4 { blocks.append(0) }
        #expect(blocks.loudness(ofLast: 4) == -.infinity)
        #expect(abs(blocks.loudness(ofLast: 30) - (-10 + 10 * (1.0 / 30).log10Value)) < 1e-12)
        for _ in 0 ..< 26 { blocks.append(0) }
        #expect(blocks.loudness(ofLast: 30) == -.infinity)
    }
}

private extension Double {
    var log10Value: Double { Foundation.log10(self) }
}
