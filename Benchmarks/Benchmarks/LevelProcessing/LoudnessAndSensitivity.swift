import Benchmark
import DecibarAudio
import DecibarCore

#if canImport(Glibc)
import Glibc
#endif

/// Automatic sensitivity per display frame, and libebur128 loudness per 256-frame buffer (live
/// histogram gating, true peak on): both must allocate nothing.
func loudnessAndSensitivityBenchmarks() {
    // One bars frame with automatic sensitivity: advance the dB window, map level and peak, shape
    // 64 targets and smooth them; compare with "SymmetricBars.fill + BarSmoother.advance".
    Benchmark("Automatic sensitivity + SymmetricBars.fill + BarSmoother.advance (64 bars)") { benchmark in
        let barCount = 64
        let steps = 1_024
        var levels = [Float](repeating: 0, count: steps)
        var peaks = [Float](repeating: 0, count: steps)
        for step in 0 ..< steps {
            let phase = Float(step) / Float(steps)
            levels[step] = -18 + 8 * sinf(2 * .pi * 7 * phase)
            peaks[step] = levels[step] + 6 + 2 * sinf(2 * .pi * 13 * phase)
        }
        var sensitivity = AutoSensitivity()
        var targets = [Float](repeating: 0, count: barCount)
        var smoother = BarSmoother(count: barCount)
        var step = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            sensitivity.advance(loudestDB: peaks[step], levelDB: levels[step], dt: 1.0 / 60.0)
            SymmetricBars.fill(&targets, level: sensitivity.normalized(levels[step], fullScale: SymmetricBars.fullScale),
                               peak: sensitivity.normalized(peaks[step], fullScale: SymmetricBars.fullScale))
            smoother.advance(toward: targets, dt: 1.0 / 60.0)
            step = (step &+ 1) & (steps - 1)
        }
        benchmark.stopMeasurement()
        blackHole(smoother.values)
    }

    Benchmark("Automatic sensitivity alone (advance + 2 × normalized)") { benchmark in
        var sensitivity = AutoSensitivity()
        var level: Float = -20
        var sum: Float = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            level = level > -8 ? -30 : level + 0.37
            sensitivity.advance(loudestDB: level + 6, levelDB: level, dt: 1.0 / 60.0)
            sum += sensitivity.normalized(level, fullScale: 0.4) + sensitivity.normalized(level + 6, fullScale: 0.4)
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    // Music-like input (two detuned sines with an envelope) so true peak and gating do real work.
    // Every block oversampled is the worst case (a track that keeps getting louder); gated is what
    // a steady track costs once its loudest passage has set the true peak.
    for gated in [false, true] {
        Benchmark("LoudnessMeter.add (256-frame stereo buffer, 48 kHz, M/S/I/LRA/true peak, \(gated ? "gated true peak" : "every block oversampled"))",
                  configuration: .init(scalingFactor: .kilo, maxDuration: .seconds(10), maxIterations: 20)) { benchmark in
            let bufferCount = 64
            var buffers: [AudioBuffer] = []
            for index in 0 ..< bufferCount {
                var samples = [Float](repeating: 0, count: 512)
                for frame in 0 ..< 256 {
                    let t = Float(index * 256 + frame) / 48_000
                    let envelope = 0.3 + 0.2 * sinf(2 * .pi * 0.7 * t)
                    samples[2 * frame] = envelope * (sinf(2 * .pi * 220 * t) + 0.5 * sinf(2 * .pi * 3_301 * t))
                    samples[2 * frame + 1] = envelope * (sinf(2 * .pi * 221 * t) + 0.5 * sinf(2 * .pi * 2_903 * t))
                }
                buffers.append(AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48000))
            }
            let meter = LoudnessMeter(gatesTruePeak: gated)
            // Past the first 3 s, so every block and histogram path is warm.
            for index in 0 ..< 1_000 { meter.add(buffers[index % bufferCount]) }
            var index = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                meter.add(buffers[index])
                index = index == bufferCount - 1 ? 0 : index + 1
            }
            benchmark.stopMeasurement()
            blackHole(meter.reading)
        }
    }
}
