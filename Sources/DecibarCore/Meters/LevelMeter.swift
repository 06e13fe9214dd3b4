/// A level meter per channel, in dBFS: RMS (over 300 ms, see `RMSWindow`), a peak bar with
/// ballistics, a peak-hold cap above it (hold, then fall), and a clip lamp. Advanced once per
/// display frame with the frame's sample peaks and the measured `dt`.
public struct LevelMeter: Sendable {
    public struct Reading: Sendable, Equatable {
        public var rmsDB: Float
        public var peakDB: Float
        public var holdDB: Float
        public var isClipping: Bool
    }

    public let channelCount: Int
    private var rms: [Float]
    private var peakBars: PeakCaps
    private var holdCaps: PeakCaps
    private var lamps: [ClipLamp]
    private var floorDB: Float
    /// Reused each frame, so advancing allocates nothing.
    private var clampedPeaks: [Float]

    public static let defaultHoldFallRate: Float = 12

    public init(channelCount: Int, ballistics: MeterBallistics = .digital, holdTime: Double = PeakCaps.defaultHoldTime,
                holdFallRate: Float = defaultHoldFallRate, floorDB: Float = -70) {
        self.channelCount = channelCount
        self.floorDB = floorDB
        rms = Array(repeating: floorDB, count: channelCount)
        clampedPeaks = rms
        peakBars = PeakCaps(count: channelCount, holdTime: 0, fallRate: ballistics.fallRate, initial: floorDB)
        holdCaps = PeakCaps(count: channelCount, holdTime: holdTime, fallRate: holdFallRate, initial: floorDB)
        lamps = Array(repeating: ClipLamp(), count: channelCount)
    }

    /// Moves the bars on by `dt` seconds. `rmsDB` is each channel's RMS over the window; `peakDB`
    /// its sample peak since the last frame (the floor when no audio arrived).
    public mutating func advance(rmsDB: [Float], peakDB: [Float], dt: Double) {
        for channel in 0 ..< channelCount {
            rms[channel] = Swift.max(floorDB, channel < rmsDB.count ? rmsDB[channel] : floorDB)
        }
        for channel in 0 ..< channelCount {
            clampedPeaks[channel] = Swift.max(floorDB, channel < peakDB.count ? peakDB[channel] : floorDB)
        }
        peakBars.advance(toward: clampedPeaks, dt: dt)
        holdCaps.advance(toward: peakBars.values, dt: dt)
        for channel in 0 ..< channelCount {
            lamps[channel].advance(peakDB: channel < peakDB.count ? peakDB[channel] : floorDB, dt: dt)
        }
    }

    public func reading(channel: Int) -> Reading {
        Reading(rmsDB: rms[channel], peakDB: peakBars.values[channel],
                holdDB: holdCaps.values[channel], isClipping: lamps[channel].isLit)
    }
}
