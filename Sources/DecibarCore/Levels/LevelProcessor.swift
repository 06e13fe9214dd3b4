/// Accumulates RMS and peak per channel over every buffer it is given, until a reading is taken.
///
/// A display frame or an output line spans several 256-frame buffers; the reading covers all of
/// them, so no buffer is ignored. Peak is the largest *magnitude*, not the largest signed sample.
/// `process` neither allocates nor locks: it runs on the capture path.
public struct LevelProcessor: Sendable {
    public private(set) var channelCount: Int
    private var sumOfSquares = InlineArray<8, Double>(repeating: 0)
    private var peak = InlineArray<8, Float>(repeating: 0)
    /// Frames accumulated since the last reading.
    public private(set) var frameCount = 0

    public init(channelCount: Int) {
        precondition((1...AudioBuffer.maxChannels).contains(channelCount), "channel count out of range")
        self.channelCount = channelCount
    }

    /// Adds one buffer. A buffer with another channel count (a device change) restarts the window.
    public mutating func process(_ buffer: AudioBuffer) {
        buffer.withSamples { process(interleaved: $0, channelCount: buffer.channelCount) }
    }

    /// Adds interleaved samples (whole frames of `channelCount` channels). This is the loop the
    /// benchmarks compare with plain C; `process(_:)` only hands a buffer's samples to it.
    public mutating func process(interleaved samples: UnsafeBufferPointer<Float>, channelCount channels: Int) {
        if channels != channelCount {
            channelCount = channels
            clear()
        }
        guard let base = samples.baseAddress else { return }
        let total = samples.count - samples.count % channels
        for channel in 0 ..< channels {
            // Float partial sums are exact enough for one buffer; the running total is Double.
            var sum: Float = 0
            var largest: Float = 0
            var index = channel
            while index < total {
                let sample = base[index]
                sum += sample * sample
                // A plain comparison compiles to one maxss; Swift.max's NaN handling does not.
                // NaN compares false, so it never becomes the peak.
                let magnitude = Swift.abs(sample)
                largest = magnitude > largest ? magnitude : largest
                index &+= channels
            }
            sumOfSquares[channel] += Double(sum)
            if largest > peak[channel] { peak[channel] = largest }
        }
        frameCount &+= total / channels
    }

    /// The levels of everything processed since the previous reading; starts a new window.
    public mutating func takeReading() -> LevelReading {
        let reading = currentReading()
        clear()
        return reading
    }

    /// The levels of everything processed so far, without starting a new window.
    public func currentReading() -> LevelReading {
        guard frameCount > 0 else { return .silence(channelCount: channelCount) }
        var reading = LevelReading(channelCount: channelCount, frameCount: frameCount)
        var totalPower = 0.0
        var largest: Float = 0
        for channel in 0 ..< channelCount {
            let power = sumOfSquares[channel] / Double(frameCount)
            reading.set(channel: channel, rmsDB: Decibels.fromPower(power), peakDB: Decibels.fromAmplitude(peak[channel]))
            totalPower += power
            largest = Swift.max(largest, peak[channel])
        }
        reading.combinedRMSDB = Decibels.fromPower(totalPower / Double(channelCount))
        reading.combinedPeakDB = Decibels.fromAmplitude(largest)
        return reading
    }

    private mutating func clear() {
        for channel in 0 ..< AudioBuffer.maxChannels {
            sumOfSquares[channel] = 0
            peak[channel] = 0
        }
        frameCount = 0
    }
}
