import CReference
import DecibarCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Times LevelProcessor.process against the same arithmetic in plain C, over the same samples,
// interleaved round by round so that clock changes and other load hit both sides alike.

let channels = 2
let frames = AudioBuffer.frameCapacity
let buffersPerRound = 200_000
let rounds = 9
// Distinct buffers, cycled: small enough to stay in cache, so both sides measure arithmetic, not memory.
let poolSize = 32

func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// Tones of different pitch and level per buffer and channel, so no two buffers are alike.
func makeSamples() -> [Float] {
    var flat = [Float](repeating: 0, count: poolSize * frames * channels)
    for buffer in 0 ..< poolSize {
        for frame in 0 ..< frames {
            let t = Float(buffer * frames + frame) / 48_000
            for channel in 0 ..< channels {
                let pitch = Float(220 + 37 * buffer + 110 * channel)
                let level = Float(0.1 + 0.8 * Double((buffer + channel) % poolSize) / Double(poolSize))
                flat[(buffer * frames + frame) * channels + channel] = level * sinf(2 * .pi * pitch * t)
            }
        }
    }
    return flat
}
let flat = makeSamples()
let pool = (0 ..< poolSize).map { buffer in
    AudioBuffer(interleaved: flat[(buffer * frames * channels) ..< ((buffer + 1) * frames * channels)],
                channelCount: channels, sampleRate: 48_000)
}

/// One round of the Swift processor's loop over the same samples the C loop reads.
func swiftRound() -> (Double, LevelProcessor) {
    var processor = LevelProcessor(channelCount: channels)
    let elapsed = flat.withUnsafeBufferPointer { samples in
        let base = samples.baseAddress!
        let start = seconds()
        for index in 0 ..< buffersPerRound {
            let buffer = UnsafeBufferPointer(start: base + (index & (poolSize - 1)) * frames * channels,
                                             count: frames * channels)
            processor.process(interleaved: buffer, channelCount: channels)
        }
        return seconds() - start
    }
    return (elapsed, processor)
}

/// One round through `process(_ buffer:)`, as the pipeline calls it: the loop plus handing over an
/// AudioBuffer, whose 8 KB of inline samples the compiler copies to reach them.
func bufferRound() -> Double {
    var processor = LevelProcessor(channelCount: channels)
    return pool.withUnsafeBufferPointer { buffers in
        let start = seconds()
        for index in 0 ..< buffersPerRound { processor.process(buffers[index & (poolSize - 1)]) }
        let elapsed = seconds() - start
        precondition(processor.frameCount == buffersPerRound * frames)
        return elapsed
    }
}

/// One round of the C loop over the same samples.
func cRound() -> (Double, [Double], [Float]) {
    var sums = [Double](repeating: 0, count: channels)
    var peaks = [Float](repeating: 0, count: channels)
    let elapsed = flat.withUnsafeBufferPointer { samples in
        sums.withUnsafeMutableBufferPointer { sums in
            peaks.withUnsafeMutableBufferPointer { peaks in
                let base = samples.baseAddress!
                let start = seconds()
                for index in 0 ..< buffersPerRound {
                    decibar_reference_levels(base + (index & (poolSize - 1)) * frames * channels,
                                             Int32(frames), Int32(channels), sums.baseAddress!, peaks.baseAddress!)
                }
                return seconds() - start
            }
        }
    }
    return (elapsed, sums, peaks)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2]
        : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

var swiftTimes: [Double] = []
var bufferTimes: [Double] = []
var cTimes: [Double] = []
var mismatch: String?
// One untimed round of each warms caches, page tables and the CPU clock.
_ = swiftRound()
_ = cRound()
for round in 0 ..< rounds {
    // Alternate which side goes first so neither always runs on a warmer or cooler CPU.
    let (swiftTime, processor): (Double, LevelProcessor)
    let (cTime, sums, peaks): (Double, [Double], [Float])
    if round % 2 == 0 {
        (swiftTime, processor) = swiftRound()
        (cTime, sums, peaks) = cRound()
    } else {
        (cTime, sums, peaks) = cRound()
        (swiftTime, processor) = swiftRound()
    }
    swiftTimes.append(swiftTime)
    bufferTimes.append(bufferRound())
    cTimes.append(cTime)

    // Same inputs, same arithmetic order: the results must agree (this also keeps both loops live).
    let reading = processor.currentReading()
    let totalFrames = Double(buffersPerRound * frames)
    for channel in 0 ..< channels {
        let rmsDB = Float(10 * log10(sums[channel] / totalFrames))
        let peakDB = 20 * log10f(peaks[channel])
        if abs(reading.rmsDB[channel] - rmsDB) > 1e-3 || abs(reading.peakDB[channel] - peakDB) > 1e-3 {
            mismatch = "channel \(channel): Swift rms \(reading.rmsDB[channel]) peak \(reading.peakDB[channel]) dB, "
                + "C rms \(rmsDB) peak \(peakDB) dB"
        }
    }
}

func format(_ value: Double, _ digits: Int) -> String {
    let scale = pow(10, Double(digits))
    let rounded = (value * scale).rounded() / scale
    return "\(rounded)"
}

let swiftMedian = median(swiftTimes)
let cMedian = median(cTimes)
let perBuffer = 1e9 / Double(buffersPerRound)
print("ProcessorVersusC: \(buffersPerRound) buffers of \(frames) stereo frames per round, \(rounds) rounds, medians")
print("  Swift LevelProcessor loop:    \(format(swiftMedian * 1e3, 2)) ms/round = \(format(swiftMedian * perBuffer, 1)) ns/buffer")
print("  C reference (-O2):            \(format(cMedian * 1e3, 2)) ms/round = \(format(cMedian * perBuffer, 1)) ns/buffer")
print("  ratio C_time / Swift_time:    \(format(cMedian / swiftMedian, 3))  (goal >= 0.9)")
let bufferMedian = median(bufferTimes)
print("  via process(AudioBuffer):     \(format(bufferMedian * perBuffer, 1)) ns/buffer (loop + inline-buffer hand-off), ratio \(format(cMedian / bufferMedian, 3))")
if let mismatch {
    print("ProcessorVersusC: results differ: \(mismatch)")
    exit(1)
}
