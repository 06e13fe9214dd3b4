/// RMS over the last `duration` seconds of each channel, as a running sum over whole buffers:
/// the window spans the fewest newest buffers that cover `duration` (300 ms is 56.25 buffers of
/// 256 frames at 48 kHz, so 57). The ring of per-buffer energies is sized once, at the first
/// buffer's rate, so adding a buffer never allocates.
public struct RMSWindow: Sendable {
    public let duration: Double
    public let channelCount: Int
    /// Per block: channelCount energies, flat.
    private var energies: [Double] = []
    private var frames: [Int] = []
    private var oldest = 0
    private var blockCount = 0
    private var totals: [Double]
    private var totalFrames = 0
    private var sampleRate = 0

    public static let defaultDuration = 0.3

    public init(duration: Double = defaultDuration, channelCount: Int) {
        precondition(duration > 0 && channelCount >= 1, "invalid RMS window")
        self.duration = duration
        self.channelCount = channelCount
        totals = Array(repeating: 0, count: channelCount)
    }

    private var capacity: Int { frames.count }

    public mutating func add(_ buffer: AudioBuffer) {
        if buffer.sampleRate != sampleRate {
            sampleRate = buffer.sampleRate
            let blocks = Int((duration * Double(sampleRate) / Double(AudioBuffer.frameCapacity)).rounded(.up)) + 8
            energies = Array(repeating: 0, count: blocks * channelCount)
            frames = Array(repeating: 0, count: blocks)
            reset()
        }
        if blockCount == capacity { dropOldest() }
        let slot = (oldest + blockCount) % capacity
        buffer.withSamples { samples in
            let sourceChannels = buffer.channelCount
            for channel in 0 ..< channelCount {
                let source = Swift.min(channel, sourceChannels - 1)
                var energy = 0.0
                for frame in 0 ..< buffer.frameCount {
                    let sample = Double(samples[frame * sourceChannels + source])
                    energy += sample * sample
                }
                energies[slot * channelCount + channel] = energy
                totals[channel] += energy
            }
        }
        frames[slot] = buffer.frameCount
        totalFrames += buffer.frameCount
        blockCount += 1
        let wanted = Int((duration * Double(sampleRate)).rounded(.up))
        while blockCount > 1, totalFrames - frames[oldest] >= wanted { dropOldest() }
    }

    private mutating func dropOldest() {
        for channel in 0 ..< channelCount { totals[channel] -= energies[oldest * channelCount + channel] }
        totalFrames -= frames[oldest]
        oldest = (oldest + 1) % capacity
        blockCount -= 1
    }

    /// RMS of `channel` over the window, in dBFS (-160 for silence or no audio yet).
    public func rmsDB(channel: Int) -> Float {
        let total = totals[channel]
        guard totalFrames > 0, total > 1e-30 else { return Decibels.floor }
        return Decibels.fromAmplitude(Float((total / Double(totalFrames)).squareRoot()))
    }

    public mutating func reset() {
        for channel in 0 ..< channelCount { totals[channel] = 0 }
        totalFrames = 0
        blockCount = 0
        oldest = 0
    }
}
