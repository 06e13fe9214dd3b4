import Benchmark
import DecibarAudio
import DecibarCore

/// One 256-frame buffer through the beat detector (mono mix, 1024-point FFT, onset strength,
/// tracking, and the tempo estimate twice a second of audio): the cost beats add to every buffer
/// a tap or the player hands over. Goal: no allocation.
func beatBenchmarks() {
    Benchmark("BeatDetector.add (256-frame stereo buffer, 120 BPM clicks, 48 kHz)",
              configuration: .init(scalingFactor: .kilo)) { benchmark in
        // Eight seconds of clicks, looped: every beat found, the estimate run on full history.
        let beat = 24_000
        let buffers = (0 ..< 1500).map { index -> AudioBuffer in
            var samples = [Float](repeating: 0, count: 512)
            for frame in 0 ..< 256 {
                let position = (index * 256 + frame) % beat
                let click: Float = position < 480 ? 0.3 * Float(1 - Double(position) / 480) * (position.isMultiple(of: 2) ? 1 : -1) : 0
                samples[2 * frame] = click
                samples[2 * frame + 1] = click
            }
            return AudioBuffer(interleaved: samples, channelCount: 2, sampleRate: 48_000)
        }
        guard let detector = BeatDetector(sampleRate: 48_000) else { fatalError("no FFTW plan") }
        var beats = 0
        var next = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            detector.add(buffers[next]) { _ in beats += 1 }
            next = next + 1 == buffers.count ? 0 : next + 1
        }
        benchmark.stopMeasurement()
        blackHole(beats)
    }
}
