/// The level meter: one bar per channel (two at most), RMS over the feed's window, peaks from the
/// frame's reading, with hold and clip lamps, and the loudness the feed measures.
public struct MeterState: VisualState {
    public static let floorDB: Float = -70

    public let settings: VisualSettings
    public private(set) var meter: LevelMeter
    public private(set) var channels = 2
    /// The loudness the meter shows (nil until the feed measures it).
    public private(set) var loudness: LoudnessReading?
    /// The meter's inputs, reused every frame.
    private var rms: [Float] = []
    private var peaks: [Float] = []

    public init(settings: VisualSettings) {
        self.settings = settings
        meter = Self.makeMeter(settings: settings, channels: 2)
    }

    private static func makeMeter(settings: VisualSettings, channels: Int) -> LevelMeter {
        LevelMeter(channelCount: channels, ballistics: settings.configuration[MeterSettings.rows.ballistics], holdTime: settings.holdTime,
                   holdFallRate: settings.fallRate, floorDB: floorDB)
    }

    public mutating func update(_ frame: VisualFrame) {
        let feed = frame.feed, reading = frame.reading
        let count = Swift.min(2, feed.format?.channelCount ?? 2)
        if count != channels {
            channels = count
            meter = Self.makeMeter(settings: settings, channels: count)
        }
        let floor = Self.floorDB
        if rms.count != count {
            rms = Array(repeating: floor, count: count)
            peaks = rms
        }
        for channel in 0 ..< count {
            rms[channel] = frame.hasAudio ? feed.windowRMSDB(channel: channel) : floor
            peaks[channel] = reading.frameCount > 0 && channel < reading.channelCount ? reading.peakDB(channel: channel) : floor
        }
        meter.advance(rmsDB: rms, peakDB: peaks, dt: frame.dt)
        loudness = feed.loudness
    }

    /// Every bar, hold line and lamp at the floor.
    public var isAtRest: Bool {
        (0 ..< channels).allSatisfy {
            let reading = meter.reading(channel: $0)
            return reading.peakDB <= Self.floorDB && reading.holdDB <= Self.floorDB && !reading.isClipping
                && reading.rmsDB <= Self.floorDB
        }
    }

    /// The peaks on the dB scale, 0...1.
    public var meanValue: Float {
        var sum: Float = 0
        for channel in 0 ..< channels { sum += (meter.reading(channel: channel).peakDB - Self.floorDB) / -Self.floorDB }
        return sum / Float(Swift.max(1, channels))
    }
}
