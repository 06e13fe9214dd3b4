import Benchmark
import DecibarApp
import DecibarAudio
import DecibarCore
import DecibarRender
import Glibc

// One display frame of each mode as the window draws it: hand the feed the audio of a 60 Hz frame
// (four 256-frame buffers), release what is heard, move the visualizer on and draw it with OpenGL
// (Mesa, offscreen through EGL). The malloc counts here include the OpenGL driver's: Mesa's
// llvmpipe allocates inside every draw call (see the "OpenGL alone" floor).
// Scripts/bench-frame-allocations.sh splits them by caller; Decibar's own code makes none. The
// "state" benchmarks run everything of a frame but the drawing, so they count Decibar's side alone.
private let metrics: [BenchmarkMetric] = [.wallClock, .mallocCountTotal]

/// Interleaved stereo: a 220 Hz tone with a beat, so bars, bands and meters all move.
private func buffers(count: Int) -> [AudioBuffer] {
    (0 ..< count).map { index in
        var samples = [Float](repeating: 0, count: 512)
        for frame in 0 ..< 256 {
            let t = Float(index * 256 + frame) / 48_000
            let beat = 0.3 + 0.7 * abs(sinf(2 * .pi * 2 * t))
            samples[2 * frame] = 0.5 * beat * sinf(2 * .pi * 220 * t)
            samples[2 * frame + 1] = 0.4 * beat * sinf(2 * .pi * 330 * t)
        }
        var buffer = AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48_000, startFrame: Int64(index * 256))
        buffer.captureTime = Double(index + 1) * 256 / 48_000
        return buffer
    }
}

/// The audio a 60 Hz window is handed each frame: four 256-frame buffers into the feed, then the
/// release of what has been heard by the frame's time.
private final class FrameAudio {
    let feed = AudioFeed()
    private let audio: [AudioBuffer]
    private var next = 0

    init(buffers count: Int) { audio = buffers(count: count) }

    /// The next frame's reading and time.
    func advance() -> (reading: LevelReading, now: Double) {
        for _ in 0 ..< 4 {
            feed.add(audio[next % audio.count])
            next += 1
        }
        let now = Double(next) * 256 / 48_000
        return (feed.release(heardBy: now), now)
    }
}

/// Warms `drawFrame` up outside the measurement (first frames make textures and grow buffers),
/// then measures it, waiting for OpenGL to finish either side.
private func measureFrames(_ benchmark: Benchmark, on canvas: OffscreenCanvas, _ drawFrame: () -> Void) {
    for _ in 0 ..< 120 { drawFrame() }
    canvas.finish()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations { drawFrame() }
    canvas.finish()
    benchmark.stopMeasurement()
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: metrics, timeUnits: .microseconds, warmupIterations: 60,
                                           scalingFactor: .one, maxDuration: .seconds(10), maxIterations: 300)
    // What the measuring itself allocates per sample, and what Mesa does for one instanced draw:
    // the floors the frames above are read against.
    Benchmark("Empty frame (the benchmark's own cost)") { benchmark in
        var count = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { count += 1 }
        benchmark.stopMeasurement()
        blackHole(count)
    }
    Benchmark("OpenGL alone: clear and one instanced draw of 48 fixed bars") { benchmark in
        guard let canvas = try? OffscreenCanvas(width: 1280, height: 720), let shaders = try? ShaderLibrary(),
              let renderer = try? BarRenderer(shaders: shaders) else { fatalError("no offscreen OpenGL here") }
        let bars = BarLayout().rects(for: (0 ..< 48).map { Float($0) / 48 }, width: 1280, height: 720)
        func drawFrame() {
            BarRenderer.clear(to: BarTheme.default.background)
            renderer.draw(bars, width: 1280, height: 720, theme: .default, windowHeight: 720)
        }
        measureFrames(benchmark, on: canvas, drawFrame)
    }

    // The pictures' states (GL-free), with caps on.
    let stateSettings = {
        var settings = VisualSettings()
        settings.caps = true
        return settings
    }()
    let states: [(String, @Sendable () -> any VisualState)] = [
        ("bars", { LevelBarsState(settings: stateSettings) }),
        ("spectrum", {
            SpectrumState(settings: stateSettings) { rate, bands in
                SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 2, measuredPlan: false)
            }
        }),
        ("meter", { MeterState(settings: stateSettings) }),
    ]
    for (name, make) in states {
        // A thousand frames per sample, counted unscaled: one allocation in a thousand frames shows.
        Benchmark("Visualizer state, 1000 frames without drawing: \(name), caps on") { benchmark in
            var state = make()
            var clock = VisualClock()
            let audio = FrameAudio(buffers: 4 * (120 + 1000))
            func advance() {
                let (reading, now) = audio.advance()
                state.update(clock.frame(reading: reading, feed: audio.feed, dt: 1.0 / 60, now: now, canvasWidth: 1280))
            }
            for _ in 0 ..< 120 { advance() }
            benchmark.startMeasurement()
            for _ in 0 ..< 1000 { advance() }
            benchmark.stopMeasurement()
            blackHole(state.meanValue)
        }
    }

    for mode in VisualMode.allCases {
        Benchmark("Display frame: \(mode.rawValue), 1280x720, caps on") { benchmark in
            guard let canvas = try? OffscreenCanvas(width: 1280, height: 720), let shaders = try? ShaderLibrary() else {
                fatalError("no offscreen OpenGL (EGL with Mesa) here")
            }
            var settings = DisplaySettings()
            settings.mode = mode
            settings.caps = true
            guard let visualizer = try? Visualizer(options: settings, shaders: shaders, labelSize: 14, now: 0) else {
                fatalError("the visualizer's shaders did not compile")
            }
            let audio = FrameAudio(buffers: 4096)
            var frame = 0
            func drawFrame() {
                let (reading, now) = audio.advance()
                visualizer.update(reading: reading, feed: audio.feed, dt: 1.0 / 60, now: now, canvasWidth: 1280)
                BarRenderer.clear(to: visualizer.clearColor)
                visualizer.draw(width: 1280, height: 720, windowHeight: 720, now: now)
                frame += 1
            }
            measureFrames(benchmark, on: canvas, drawFrame)
            blackHole(frame)
        }
    }
}
