import DecibarCore
import Foundation
import Testing

@Suite("Spectrum bands")
struct SpectrumBandsTests {
    @Test("the FFT length is 4096 at 48 kHz and scales with the rate",
          arguments: [(22050, 2048), (44100, 4096), (48000, 4096), (96000, 8192)])
    func fftLength(rate: Int, length: Int) {
        #expect(SpectrumBands.fftLength(forSampleRate: rate) == length)
    }

    @Test("edges are geometric from 40 Hz to min(16 kHz, 0.45 rate) and every band holds at least one bin",
          arguments: [22050, 44100, 48000, 96000])
    func edgesAndBins(rate: Int) {
        for count in [1, 8, 32, 64, 128, 512] {
            let bands = SpectrumBands(sampleRate: rate, count: count)
            let high = min(16_000, 0.45 * Double(rate))
            #expect(bands.edges.first == 40)
            #expect(abs(bands.edges.last! - high) < 1e-9)
            #expect(bands.edges.count == bands.count + 1)
            #expect(bands.count <= count && bands.count >= 1)
            // Every edge is a term 40·r^j of the nominal series (merging only drops terms).
            let ratio = bands.nominalRatio
            var previousTerm = -1
            for edge in bands.edges.dropLast() {
                let term = log(edge / 40) / log(ratio)
                #expect(abs(term - term.rounded()) < 1e-6, "\(rate) Hz, \(count) bands: edge \(edge) is not a term")
                #expect(Int(term.rounded()) > previousTerm)
                previousTerm = Int(term.rounded())
            }
            for (index, range) in bands.bins.enumerated() {
                #expect(!range.isEmpty, "\(rate) Hz, \(count) bands: band \(index) has no bin")
                // The bins are those whose centers lie inside the band, and bands tile the bins.
                let width = bands.binWidth
                #expect(Double(range.lowerBound) * width >= bands.edges[index] - 1e-9)
                #expect(Double(range.upperBound - 1) * width < bands.edges[index + 1] + 1e-9)
                if index > 0 { #expect(bands.bins[index - 1].upperBound == range.lowerBound) }
            }
        }
    }

    @Test("64 bands at 48 kHz: low bands merge, high bands keep the nominal ratio")
    func sixtyFourBands() {
        let bands = SpectrumBands(sampleRate: 48000, count: 64)
        #expect(bands.fftLength == 4096)
        #expect(abs(bands.nominalRatio - pow(400, 1.0 / 64)) < 1e-12)
        #expect(bands.count < 64)
        // Above a few hundred Hz nothing merges: consecutive edges are one ratio apart.
        let top = bands.edges.suffix(20)
        for (low, high) in zip(top, top.dropFirst()).dropLast() { #expect(abs(high / low - bands.nominalRatio) < 1e-9) }
    }

    @Test("a band's level is 10·log10 of its power less the pink correction; no power reads the floor")
    func levels() {
        let bands = SpectrumBands(sampleRate: 48000, count: 16)
        var power = [Float](repeating: 0, count: bands.fftLength / 2 + 1)
        var levels = [Float](repeating: 0, count: bands.count)
        power.withUnsafeBufferPointer { p in levels.withUnsafeMutableBufferPointer { bands.levels(fromPower: p, into: $0) } }
        #expect(levels.allSatisfy { $0 == SpectrumBands.floorDB })
        let band = 10
        for bin in bands.bins[band] { power[bin] = 0.25 / Float(bands.bins[band].count) }
        power.withUnsafeBufferPointer { p in levels.withUnsafeMutableBufferPointer { bands.levels(fromPower: p, into: $0) } }
        #expect(abs(levels[band] - (-6.0206 - bands.corrections[band])) < 0.001)
        #expect(levels.enumerated().allSatisfy { $0.offset == band || $0.element == SpectrumBands.floorDB })
    }

    @Test("a wide band's pink correction is near 0 dB: its pink weight is about ln r")
    func corrections() {
        let bands = SpectrumBands(sampleRate: 48000, count: 32)
        #expect(abs(bands.corrections.last!) < 0.2)
        // Merged low bands hold more than one ratio's worth of pink power.
        #expect(bands.corrections.first! > 0)
    }

    @Test("the band containing a frequency")
    func bandContaining() {
        let bands = SpectrumBands(sampleRate: 48000, count: 32)
        #expect(bands.band(containing: 39) == nil)
        #expect(bands.band(containing: 40) == 0)
        #expect(bands.band(containing: 15_999) == bands.count - 1)
        #expect(bands.band(containing: 16_000) == nil)
        for (index, center) in bands.centers.enumerated() { #expect(bands.band(containing: center) == index) }
    }

    @Test("a Hann window: zero at the ends, one in the middle, and a power scale of 4/(N·Σw²)")
    func hann() {
        let window = HannWindow(length: 8)
        #expect(window.coefficients[0] == 0)
        #expect(abs(window.coefficients[4] - 1) < 1e-7)
        #expect(abs(window.coefficients[2] - 0.5) < 1e-7)
        // Σw² of a periodic Hann window is 3N/8.
        #expect(abs(window.powerScale - 4 / (8 * 3)) < 1e-6)
    }

    @Test("stereo arrangement: left mirrored on the left, right on the right, lows in the center or at the edges")
    func stereo() {
        var values: [Float] = []
        StereoSpectrum.arrange([[1, 2, 3], [4, 5, 6]], into: &values)
        #expect(values == [3, 2, 1, 4, 5, 6])
        StereoSpectrum.arrange([[1, 2, 3], [4, 5, 6]], lowsAtEdges: true, into: &values)
        #expect(values == [1, 2, 3, 6, 5, 4])
        StereoSpectrum.arrange([[1, 2]], into: &values)
        #expect(values == [2, 1, 1, 2])
        #expect(StereoSpectrum.positions(ofBand: 0, bandCount: 3) == (left: 2, right: 3))
        #expect(StereoSpectrum.positions(ofBand: 0, bandCount: 3, lowsAtEdges: true) == (left: 0, right: 5))
    }

    @Test("sample history keeps the newest samples per channel, oldest first, zeros before any")
    func history() {
        var history = SampleHistory(capacity: 8, channelCount: 2)
        var out = [Float](repeating: 9, count: 4)
        out.withUnsafeMutableBufferPointer { history.copyLatest(channel: 0, into: $0) }
        #expect(out == [0, 0, 0, 0])
        let frames: [Float] = (0 ..< 10).flatMap { [Float($0), -Float($0)] }
        frames.withUnsafeBufferPointer { history.append(interleaved: $0, channelCount: 2) }
        out.withUnsafeMutableBufferPointer { history.copyLatest(channel: 0, into: $0) }
        #expect(out == [6, 7, 8, 9])
        out.withUnsafeMutableBufferPointer { history.copyLatest(channel: 1, into: $0) }
        #expect(out == [-6, -7, -8, -9])
        // Mono input fills both channels.
        [Float(42)].withUnsafeBufferPointer { history.append(interleaved: $0, channelCount: 1) }
        out.withUnsafeMutableBufferPointer { history.copyLatest(channel: 1, into: $0) }
        #expect(out == [-7, -8, -9, 42])
        // Appends that cross the ring's end come out in order.
        var ring = SampleHistory(capacity: 8, channelCount: 1)
        var all = [Float](repeating: 0, count: 8)
        for chunk in [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11]] as [[Float]] {
            chunk.withUnsafeBufferPointer { ring.append(interleaved: $0, channelCount: 1) }
        }
        all.withUnsafeMutableBufferPointer { ring.copyLatest(channel: 0, into: $0) }
        #expect(all == [4, 5, 6, 7, 8, 9, 10, 11])
    }
}
