import Benchmark
import DecibarAudio
import DecibarCore

/// One display frame of spectrum mode: copy the newest 4096 samples of each channel out of the
/// feed, window, transform (FFTW), sum 32 bands per channel, map to heights and lay them out.
func spectrumBenchmarks() {
    Benchmark("Spectrum frame: 2 × 4096-point FFT + 32 bands per channel (48 kHz)",
              configuration: .init(scalingFactor: .kilo)) { benchmark in
        let feed = AudioFeed()
        var state: UInt64 = 1
        for index in 0 ..< 32 {
            let samples = (0 ..< 512).map { _ -> Float in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                return Float(Int64(bitPattern: state) >> 40) / Float(1 << 23) * 0.25
            }
            feed.add(AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48_000, startFrame: Int64(index * 256)))
        }
        _ = feed.release(heardBy: 1)
        guard let analyzer = SpectrumAnalyzer(sampleRate: 48_000, bandCount: 32) else { fatalError("no FFTW plan") }
        let scale = SpectrumScale(floorDB: -70)
        var heights: [[Float]] = []
        var bars: [Float] = []
        var smoother = BarSmoother(count: 2 * analyzer.bands.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let levels = analyzer.analyze { channel, destination in feed.copyLatest(channel: channel, into: destination) }
            scale.normalize(levels, into: &heights)
            StereoSpectrum.arrange(heights, into: &bars)
            smoother.advance(toward: bars, dt: 1.0 / 60)
        }
        benchmark.stopMeasurement()
        blackHole(smoother.values)
    }

    // What `levels --mode spectrum --bands 64` writes per line on top of the analysis.
    Benchmark("Spectrum line: 2 × 64 band levels as JSON", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let levels: [[Float]] = (0 ..< 2).map { channel in
            (0 ..< 64).map { band in -70 + Float((band * 37 + channel * 11) % 700) / 10 }
        }
        var line: [UInt8] = []
        line.reserveCapacity(1024)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            line.removeAll(keepingCapacity: true)
            SpectrumLine.append(time: Double(iteration) / 60, levels: levels, to: &line)
        }
        benchmark.stopMeasurement()
        blackHole(line)
    }
}
