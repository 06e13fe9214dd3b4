import DecibarCore
import Testing

@Suite("Waveform overview: downsampling, peaks, rescaling")
struct PeaksTests {
    func expectClose(_ actual: [Double], _ expected: [Double], tolerance: Double = 1e-3,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(actual.count == expected.count, "\(actual)", sourceLocation: sourceLocation)
        for (a, e) in zip(actual, expected) { #expect(abs(a - e) < tolerance, "\(actual)", sourceLocation: sourceLocation) }
    }

    @Test("[3,2,1,2,2,1,7] to 2 values averages groups of 3: [2.0, 1.667]")
    func wholeSeven() {
        #expect(AveragingDecimator.factor(totalCount: 7, desiredCount: 2) == 3)
        expectClose(AveragingDecimator.decimate([3, 2, 1, 2, 2, 1, 7], toCount: 2), [2.0, 1.667])
    }

    @Test("[3,2,1,2,2,1,7,1,5,1,4] to 2 values averages groups of 5: [2, 3]")
    func wholeEleven() {
        expectClose(AveragingDecimator.decimate([3, 2, 1, 2, 2, 1, 7, 1, 5, 1, 4], toCount: 2), [2, 3])
    }

    @Test("progressive blocks of 3 (and of 4, the seed's `count > 3` threshold) with leftovers give the whole result",
          arguments: [3, 4])
    func progressive(blockSize: Int) {
        for (input, expected) in [([3.0, 2, 1, 2, 2, 1, 7], [2.0, 1.667]), ([3.0, 2, 1, 2, 2, 1, 7, 1, 5, 1, 4], [2.0, 3])] {
            var decimator = AveragingDecimator(factor: AveragingDecimator.factor(totalCount: input.count, desiredCount: 2))
            var output: [Double] = []
            var block: [Double] = []
            for value in input {
                block.append(value)
                if block.count == blockSize {
                    decimator.append(contentsOf: block) { output.append($0) }
                    block.removeAll()
                }
            }
            decimator.append(contentsOf: block) { output.append($0) }
            expectClose(output, expected)
        }
    }

    @Test("min/max pairs of a known signal, per channel, with the tail as a last pair")
    func minMaxPairs() {
        // Left: a ramp 0, 0.01, ... ; right: the negated ramp. 600 frames at 256 per pair.
        let frames = 600
        var samples = [Float](repeating: 0, count: frames * 2)
        for frame in 0 ..< frames {
            samples[frame * 2] = Float(frame) * 0.001
            samples[frame * 2 + 1] = -Float(frame) * 0.001
        }
        var builder = PeaksBuilder(sampleRate: 48000, channelCount: 2, samplesPerPixel: 256)
        // Fed in uneven pieces, as a decoder would.
        samples.withUnsafeBufferPointer { all in
            var start = 0
            for piece in [100, 300, 200] {
                builder.process(interleaved: UnsafeBufferPointer(rebasing: all[start * 2 ..< (start + piece) * 2]), frames: piece)
                start += piece
            }
        }
        let peaks = builder.finish()
        #expect(peaks.length == 3)
        let ramp = { (frame: Int) in Float(frame) * 0.001 }
        #expect(peaks.pairs[0].map(\.min) == [ramp(0), ramp(256), ramp(512)])
        #expect(peaks.pairs[0].map(\.max) == [ramp(255), ramp(511), ramp(599)])
        #expect(peaks.pairs[1].map(\.max) == [-ramp(0), -ramp(256), -ramp(512)])
        #expect(peaks.pairs[1].map(\.min) == [-ramp(255), -ramp(511), -ramp(599)])
        #expect(peaks.largestMagnitude == ramp(599))
        #expect(abs(peaks.duration - 768.0 / 48000) < 1e-12)
    }

    @Test("rescaling to fewer columns never loses a peak")
    func rescaleKeepsPeaks() {
        var pairs = [PeakPair](repeating: PeakPair(min: -0.1, max: 0.1), count: 1000)
        pairs[123] = PeakPair(min: -0.2, max: 0.9)
        pairs[777] = PeakPair(min: -0.95, max: 0.3)
        let peaks = Peaks(sampleRate: 44100, samplesPerPixel: 256, channelCount: 1, pairs: [pairs])
        for count in [1, 7, 64, 333, 999, 1000] {
            let columns = PeaksRescaler.columns(peaks, count: count, totalLength: 1000).compactMap { $0 }
            #expect(columns.count == count)
            #expect(columns.map(\.max).max() == 0.9)
            #expect(columns.map(\.min).min() == -0.95)
        }
        // The averaging filter smooths instead: a lone spike is diluted.
        let averaged = PeaksRescaler.columns(peaks, count: 10, totalLength: 1000, filter: .average).compactMap { $0 }
        #expect(averaged[1].max < 0.2)
    }

    @Test("a zoomed stretch: columns from pair positions, a column narrower than a pair takes the pair under it")
    func stretch() {
        let pairs = (0 ..< 100).map { PeakPair(min: -Float($0) / 100, max: Float($0) / 100) }
        let peaks = Peaks(sampleRate: 48000, samplesPerPixel: 256, channelCount: 1, pairs: [pairs])
        var columns: [PeakPair?] = [PeakPair(min: -1, max: 1)]
        // Pairs 10 to 20 in 5 columns: two pairs each, the larger one counts.
        PeaksRescaler.columns(peaks, count: 5, from: 10, to: 20, into: &columns)
        #expect(columns.map { $0?.max } == [0.11, 0.13, 0.15, 0.17, 0.19])
        // 2.5 pairs in 5 columns: each column shows the pair it falls in.
        PeaksRescaler.columns(peaks, count: 5, from: 40.5, to: 43, into: &columns)
        #expect(columns.map { $0?.max } == [0.40, 0.41, 0.41, 0.42, 0.42])
        // Past what is analyzed: empty.
        PeaksRescaler.columns(peaks, count: 4, from: 98, to: 102, into: &columns)
        #expect(columns.map { $0?.max } == [0.98, 0.99, nil, nil])
        // The whole track through the stretch form is exactly the whole-track columns.
        PeaksRescaler.columns(peaks, count: 7, from: 0, to: 100, into: &columns)
        #expect(columns == PeaksRescaler.columns(peaks, count: 7, totalLength: 100))
    }

    @Test("columns past what is analyzed yet are empty, so the scrubber can fill in")
    func partial() {
        let peaks = Peaks(sampleRate: 48000, samplesPerPixel: 256, channelCount: 1,
                          pairs: [[PeakPair](repeating: PeakPair(min: -0.5, max: 0.5), count: 50)])
        let columns = PeaksRescaler.columns(peaks, count: 10, totalLength: 100)
        #expect(columns.prefix(5).allSatisfy { $0 != nil })
        #expect(columns.suffix(5).allSatisfy { $0 == nil })
    }
}
