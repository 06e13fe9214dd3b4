/// RMS and peak levels per channel over some stretch of audio, in dBFS.
public struct LevelReading: Sendable, Equatable {
    /// RMS level per channel, dBFS, floored at -160.
    public var rmsDB: [Float]
    /// Largest |sample| per channel, dBFS, floored at -160.
    public var peakDB: [Float]
    /// Frames the reading covers; 0 means no audio arrived.
    public var frameCount: Int
    /// RMS of all channels together (mean power), dBFS.
    public var combinedRMSDB: Float
    /// Largest |sample| of any channel, dBFS.
    public var combinedPeakDB: Float

    public var channelCount: Int { rmsDB.count }

    public init(rmsDB: [Float], peakDB: [Float], frameCount: Int, combinedRMSDB: Float, combinedPeakDB: Float) {
        self.rmsDB = rmsDB
        self.peakDB = peakDB
        self.frameCount = frameCount
        self.combinedRMSDB = combinedRMSDB
        self.combinedPeakDB = combinedPeakDB
    }

    /// A reading of digital silence for `channelCount` channels.
    public static func silence(channelCount: Int) -> LevelReading {
        LevelReading(rmsDB: Array(repeating: Decibels.floor, count: channelCount),
                     peakDB: Array(repeating: Decibels.floor, count: channelCount),
                     frameCount: 0, combinedRMSDB: Decibels.floor, combinedPeakDB: Decibels.floor)
    }
}
