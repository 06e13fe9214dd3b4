import DecibarAudio
import DecibarCore
import Foundation
import Testing

/// The spectrum through the real FFTW: tones, pink and white noise, silence.
@Suite("Spectrum analyzer (FFTW)")
struct SpectrumAnalyzerTests {
    /// Mean band power in dB over a whole signal, analyzed in blocks half a window apart
    /// (powers are averaged, not dB).
    func averageLevels(_ signal: [Float], rate: Int = 48000, bands: Int = 32) throws -> (levels: [Float], bands: SpectrumBands) {
        let analyzer = try #require(SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 1))
        let length = analyzer.bands.fftLength
        var sums = [Double](repeating: 0, count: analyzer.bands.count)
        var blocks = 0
        var start = 0
        while start + length <= signal.count {
            let levels = analyzer.analyze { _, destination in
                for index in 0 ..< length { destination[index] = signal[start + index] }
            }
            for band in sums.indices { sums[band] += pow(10, Double(levels[0][band]) / 10) }
            blocks += 1
            start += length / 2
        }
        return (sums.map { Float(10 * log10($0 / Double(blocks))) }, analyzer.bands)
    }

    /// A deterministic generator of uniform white noise in -1...1.
    struct Noise {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Double(state >> 11) / Double(1 << 53)) * 2 - 1
        }
    }

    func white(seconds: Double, rate: Int = 48000, seed: UInt64 = 1) -> [Float] {
        var noise = Noise(state: seed)
        return (0 ..< Int(seconds * Double(rate))).map { _ in 0.25 * noise.next() }
    }

    /// Pink noise from white by Paul Kellet's refined filter (within ±0.05 dB of -3 dB/octave above ~10 Hz).
    func pink(seconds: Double, seed: UInt64 = 2) -> [Float] {
        var noise = Noise(state: seed)
        var b = [Float](repeating: 0, count: 7)
        return (0 ..< Int(seconds * 48000)).map { _ in
            let w = noise.next()
            b[0] = 0.99886 * b[0] + w * 0.0555179
            b[1] = 0.99332 * b[1] + w * 0.0750759
            b[2] = 0.96900 * b[2] + w * 0.1538520
            b[3] = 0.86650 * b[3] + w * 0.3104856
            b[4] = 0.55000 * b[4] + w * 0.5329522
            b[5] = -0.7616 * b[5] - w * 0.0168980
            let value = b[0] + b[1] + b[2] + b[3] + b[4] + b[5] + b[6] + w * 0.5362
            b[6] = w * 0.115926
            return value * 0.05
        }
    }

    @Test("a sine lights the band that holds it; bands clear of the window's main lobe are at least 20 dB lower",
          arguments: [60.0, 110, 250, 500, 1000, 2000, 4000, 8000, 12_000, 15_500])
    func sine(frequency: Double) throws {
        let signal = (0 ..< 48000).map { Float(0.5 * sin(2 * Double.pi * frequency * Double($0) / 48000)) }
        let (levels, bands) = try averageLevels(signal)
        let band = try #require(bands.band(containing: frequency))
        let loudest = levels.indices.max { levels[$0] < levels[$1] }
        #expect(loudest == band, "\(frequency) Hz: loudest band \(loudest ?? -1), expected \(band)")
        // Hann's main lobe covers ±2 bins around the tone; a neighbour reaching into it may share its power.
        let toneBin = frequency / bands.binWidth
        for neighbour in [band - 1, band + 1] where levels.indices.contains(neighbour) {
            let range = bands.bins[neighbour]
            let reachesLobe = Double(range.upperBound - 1) >= toneBin - 2 && Double(range.lowerBound) <= toneBin + 2
            if !reachesLobe {
                #expect(levels[band] - levels[neighbour] >= 20, "\(frequency) Hz: neighbour \(neighbour) only \(levels[band] - levels[neighbour]) dB lower")
            }
        }
        // Far from the tone, everything is far lower still.
        for other in levels.indices where abs(other - band) > 2 {
            #expect(levels[band] - levels[other] >= 20, "\(frequency) Hz: band \(other)")
        }
    }

    @Test("at 1 kHz and above, both neighbours clear the main lobe and are checked")
    func neighboursChecked() {
        let bands = SpectrumBands(sampleRate: 48000, count: 16)
        for frequency in [1000.0, 4000, 12_000] {
            let band = bands.band(containing: frequency)!
            let toneBin = frequency / bands.binWidth
            for neighbour in [band - 1, band + 1] where bands.bins.indices.contains(neighbour) {
                let range = bands.bins[neighbour]
                #expect(Double(range.upperBound - 1) < toneBin - 2 || Double(range.lowerBound) > toneBin + 2)
            }
        }
    }

    @Test("pink noise draws flat: every band within ±1.5 dB of the median")
    func pinkIsFlat() throws {
        let (levels, bands) = try averageLevels(pink(seconds: 30), bands: 32)
        let median = levels.sorted()[levels.count / 2]
        for (index, level) in levels.enumerated() {
            #expect(abs(level - median) <= 1.5, "band \(index) (\(Int(bands.centers[index])) Hz): \(level - median) dB from the median")
        }
    }

    @Test("white noise rises about 3 dB per octave")
    func whiteRises() throws {
        let (levels, bands) = try averageLevels(white(seconds: 20), bands: 32)
        // Least-squares slope of level against octaves, over bands wide enough to average well.
        let points = zip(bands.centers, levels).filter { $0.0 >= 150 }.map { (log2($0.0), Double($0.1)) }
        let meanX = points.map(\.0).reduce(0, +) / Double(points.count)
        let meanY = points.map(\.1).reduce(0, +) / Double(points.count)
        let slope = points.map { ($0.0 - meanX) * ($0.1 - meanY) }.reduce(0, +) / points.map { pow($0.0 - meanX, 2) }.reduce(0, +)
        #expect(abs(slope - 3.01) < 0.3, "slope \(slope) dB/octave")
    }

    @Test("silence sits at the floor")
    func silence() throws {
        let (levels, _) = try averageLevels([Float](repeating: 0, count: 48000))
        #expect(levels.allSatisfy { $0 == SpectrumBands.floorDB })
    }

    @Test("a full-scale sine on a bin center reads 0 dB in its band, before the pink correction")
    func calibration() throws {
        let analyzer = try #require(SpectrumAnalyzer(sampleRate: 48000, bandCount: 16, channelCount: 1))
        let bin = 400.0 // 4687.5 Hz
        let levels = analyzer.analyze { _, destination in
            for index in 0 ..< destination.count { destination[index] = Float(sin(2 * Double.pi * bin * Double(index) / 4096)) }
        }
        let band = try #require(analyzer.bands.band(containing: bin * analyzer.bands.binWidth))
        #expect(abs(levels[0][band] + analyzer.bands.corrections[band]) < 0.01)
    }
}
