import Benchmark
import DecibarCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Each scaled iteration is one unit of real work (a buffer, a delivery, a display frame), so the
// table reads directly as ns and allocations per unit. The capture path must not allocate at all.
// A sample is a million units (about 1 s): CPU time on Linux comes in 10 ms clock ticks, which a
// thousand units would round to 0 or 10 µs. Per-unit counts are rounded down: for raw allocation
// totals per sample run with `--scale --metric mallocCountTotal`, and compare with the empty-loop
// baseline at the end (reading CPU time costs the framework a few allocations of its own).
private let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal]

/// Interleaved stereo sine at 48 kHz: left 1 kHz at -6 dBFS, right 440 Hz at -12 dBFS.
private func stereoSine(frames: Int) -> [Float] {
    var samples = [Float](repeating: 0, count: frames * 2)
    for frame in 0 ..< frames {
        let t = Float(frame) / 48_000
        samples[2 * frame] = 0.5 * sinf(2 * .pi * 1_000 * t)
        samples[2 * frame + 1] = 0.25 * sinf(2 * .pi * 440 * t)
    }
    return samples
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: metrics,
        timeUnits: .nanoseconds,
        warmupIterations: 1,
        scalingFactor: .mega,
        maxDuration: .seconds(10),
        maxIterations: 10
    )

    Benchmark("LevelProcessor.process (256-frame stereo buffer)") { benchmark in
        let buffer = AudioBuffer(interleaved: stereoSine(frames: AudioBuffer.frameCapacity), channelCount: 2, sampleRate: 48000)
        var processor = LevelProcessor(channelCount: 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            processor.process(buffer)
        }
        benchmark.stopMeasurement()
        blackHole(processor)
    }

    // The capture path as PulseAudio drives it: 255-frame deliveries, so the 256-frame boundary
    // drifts through every offset, and each completed buffer goes straight to the processor.
    // One iteration is one delivery, which completes 255/256 of a buffer.
    Benchmark("Rechunker 255-frame deliveries into 256-frame buffers + process") { benchmark in
        let deliveryFrames = 255
        // 256 deliveries hold exactly 255 buffers: one pass walks the boundary through every offset.
        let deliveries = 256
        let stream = stereoSine(frames: deliveryFrames * deliveries)
        var rechunker = Rechunker(channelCount: 2, sampleRate: 48000)
        var processor = LevelProcessor(channelCount: 2)
        var buffersEmitted = 0
        stream.withUnsafeBufferPointer { all in
            let base = all.baseAddress!
            let deliverySamples = deliveryFrames * 2
            var delivery = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let chunk = UnsafeBufferPointer(start: base + delivery * deliverySamples, count: deliverySamples)
                rechunker.append(chunk) { buffer in
                    processor.process(buffer)
                    buffersEmitted &+= 1
                }
                delivery = delivery == deliveries - 1 ? 0 : delivery + 1
            }
            benchmark.stopMeasurement()
        }
        blackHole(buffersEmitted)
        blackHole(processor)
    }

    // One display frame of the live view: shape the targets from a reading, then smooth toward them.
    Benchmark("SymmetricBars.fill + BarSmoother.advance (64 bars)") { benchmark in
        let barCount = 64
        // Levels that move every frame, so the smoother takes both its attack and release paths.
        let steps = 1_024
        var levels = [Float](repeating: 0, count: steps)
        var peaks = [Float](repeating: 0, count: steps)
        for step in 0 ..< steps {
            let phase = Float(step) / Float(steps)
            levels[step] = 0.4 + 0.3 * sinf(2 * .pi * 7 * phase)
            peaks[step] = min(1, levels[step] + 0.2 + 0.1 * sinf(2 * .pi * 13 * phase))
        }
        var targets = [Float](repeating: 0, count: barCount)
        var smoother = BarSmoother(count: barCount)
        var step = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            SymmetricBars.fill(&targets, level: levels[step], peak: peaks[step])
            smoother.advance(toward: targets, dt: 1.0 / 60.0)
            step = (step &+ 1) & (steps - 1)
        }
        benchmark.stopMeasurement()
        blackHole(smoother.values)
    }

    loudnessAndSensitivityBenchmarks()

    // The framework's own allocations per sample: with --scale, a benchmark above allocates nothing
    // exactly when its raw malloc total equals this one.
    Benchmark("Empty measured loop (framework baseline)") { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            sum &+= index
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    spectrumBenchmarks()
}
