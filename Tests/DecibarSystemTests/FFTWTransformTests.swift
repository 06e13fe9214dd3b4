import DecibarAudio
import Foundation
import Testing

@Suite("FFTW adapter")
struct FFTWTransformTests {
    @Test("a sine on a bin center puts its power in that bin, with Parseval's energy")
    func sineBin() throws {
        let length = 4096
        let transform = try #require(FFTWTransform(length: length))
        #expect(transform.binCount == 2049)
        // Bin 100 at 48 kHz is 1171.875 Hz; exactly 100 periods fit, so nothing leaks.
        let samples = (0 ..< length).map { Float(0.5 * sin(2 * Double.pi * 100 * Double($0) / Double(length))) }
        var power = [Float](repeating: 0, count: transform.binCount)
        samples.withUnsafeBufferPointer { input in
            power.withUnsafeMutableBufferPointer { transform.powerSpectrum(of: input, into: $0) }
        }
        let loudest = power.indices.max { power[$0] < power[$1] }
        #expect(loudest == 100)
        // A sine of amplitude A over N samples: |X[k]| = A·N/2.
        #expect(abs(power[100].squareRoot() - 0.5 * Float(length) / 2) < 0.5)
        let elsewhere = power.enumerated().filter { $0.offset != 100 }.map(\.element).max() ?? 0
        #expect(elsewhere < power[100] * 1e-8)
    }

    @Test("filling the input in place gives the same spectrum as handing over a block, times the scale")
    func fillInPlace() throws {
        let length = 1024
        let transform = try #require(FFTWTransform(length: length))
        var state: UInt32 = 12345
        let samples = (0 ..< length).map { _ -> Float in
            state = state &* 1664525 &+ 1013904223
            return Float(state >> 8) / Float(1 << 24) - 0.5
        }
        var copied = [Float](repeating: 0, count: transform.binCount)
        var filled = [Float](repeating: 0, count: transform.binCount)
        samples.withUnsafeBufferPointer { input in
            copied.withUnsafeMutableBufferPointer { transform.powerSpectrum(of: input, into: $0) }
        }
        filled.withUnsafeMutableBufferPointer { power in
            transform.powerSpectrum(into: power, scale: 0.25) { input in
                #expect(input.count == length)
                _ = input.update(fromContentsOf: samples)
            }
        }
        for bin in 0 ..< transform.binCount { #expect(filled[bin] == copied[bin] * 0.25) }
        #expect(copied.contains { $0 > 1 })
    }

    @Test("odd or tiny lengths are refused")
    func badLengths() {
        #expect(FFTWTransform(length: 0) == nil)
        #expect(FFTWTransform(length: 1023) == nil)
    }

    @Test("plans can be made from several threads at once")
    func concurrentPlanning() async {
        await withTaskGroup(of: Bool.self) { group in
            for size in [256, 512, 1024, 2048, 4096, 8192] {
                group.addTask { FFTWTransform(length: size)?.binCount == size / 2 + 1 }
            }
            for await made in group { #expect(made) }
        }
    }
}
