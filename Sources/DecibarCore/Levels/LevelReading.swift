/// RMS and peak levels per channel over some stretch of audio, in dBFS.
///
/// Up to `AudioBuffer.maxChannels` channels, stored inline: taking a reading (once per display
/// frame, under the feed's lock) never touches the heap.
public struct LevelReading: Sendable, Equatable {
    public let channelCount: Int
    private var rms: InlineArray<8, Float>
    private var peaks: InlineArray<8, Float>
    /// Frames the reading covers; 0 means no audio arrived.
    public var frameCount: Int
    /// RMS of all channels together (mean power), dBFS.
    public var combinedRMSDB: Float
    /// Largest |sample| of any channel, dBFS.
    public var combinedPeakDB: Float

    /// A reading of `channelCount` channels, every level at the floor until set.
    public init(channelCount: Int, frameCount: Int = 0, combinedRMSDB: Float = Decibels.floor,
                combinedPeakDB: Float = Decibels.floor) {
        precondition((1 ... AudioBuffer.maxChannels).contains(channelCount), "channel count out of range")
        self.channelCount = channelCount
        rms = InlineArray(repeating: Decibels.floor)
        peaks = InlineArray(repeating: Decibels.floor)
        self.frameCount = frameCount
        self.combinedRMSDB = combinedRMSDB
        self.combinedPeakDB = combinedPeakDB
    }

    public init(rmsDB: [Float], peakDB: [Float], frameCount: Int, combinedRMSDB: Float, combinedPeakDB: Float) {
        precondition(rmsDB.count == peakDB.count, "one RMS and one peak per channel")
        self.init(channelCount: rmsDB.count, frameCount: frameCount, combinedRMSDB: combinedRMSDB, combinedPeakDB: combinedPeakDB)
        for channel in rmsDB.indices {
            rms[channel] = rmsDB[channel]
            peaks[channel] = peakDB[channel]
        }
    }

    /// A reading of digital silence for `channelCount` channels.
    public static func silence(channelCount: Int) -> LevelReading {
        LevelReading(channelCount: channelCount)
    }

    /// RMS level of `channel`, dBFS, floored at -160.
    public func rmsDB(channel: Int) -> Float { rms[channel] }

    /// Largest |sample| of `channel`, dBFS, floored at -160.
    public func peakDB(channel: Int) -> Float { peaks[channel] }

    public mutating func set(channel: Int, rmsDB: Float, peakDB: Float) {
        rms[channel] = rmsDB
        peaks[channel] = peakDB
    }

    /// RMS per channel (a new array: for output lines and tests, not a display frame).
    public var rmsDB: [Float] { (0 ..< channelCount).map { rms[$0] } }

    /// Peak per channel (a new array: for output lines and tests, not a display frame).
    public var peakDB: [Float] { (0 ..< channelCount).map { peaks[$0] } }

    public static func == (lhs: LevelReading, rhs: LevelReading) -> Bool {
        guard lhs.channelCount == rhs.channelCount, lhs.frameCount == rhs.frameCount,
              lhs.combinedRMSDB == rhs.combinedRMSDB, lhs.combinedPeakDB == rhs.combinedPeakDB else { return false }
        return (0 ..< lhs.channelCount).allSatisfy { lhs.rms[$0] == rhs.rms[$0] && lhs.peaks[$0] == rhs.peaks[$0] }
    }
}
