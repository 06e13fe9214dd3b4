import RealModule

/// Averages each band's power over the time its width needs to be measured, before the display
/// smoother sees it.
///
/// A band that holds one or two FFT bins reads like the noise it measures: its power is
/// exponentially distributed from frame to frame, so averaging its dB (as a bar smoother does)
/// reads about 2.5 dB low and flickers. Physics says a band `B` Hz wide yields about `B`
/// independent readings a second; this averages power (not dB) with a one-pole low-pass of
/// `measurementCycles / B` seconds, which removes the bias and most of the flicker of the narrow
/// low bands and leaves bands a few hundred Hz wide practically untouched. Frame-rate
/// independent: the step is the measured `dt`.
public struct BandPowerAverager: Sendable {
    /// Readings of a band averaged per time constant: 2 puts the lowest bands' median within a
    /// few tenths of a dB of their power.
    public static let measurementCycles = 2.0
    /// No band waits longer than this, whatever its width.
    public static let longestTimeConstant = 0.5

    /// Seconds per band.
    public let timeConstants: [Double]
    /// The averaged levels in dB, `[channel][band]`, reused every step.
    public private(set) var levels: [[Float]]
    private var power: [[Float]]
    private var primed = false

    public init(bands: SpectrumBands, channelCount: Int) {
        timeConstants = bands.bins.map { range in
            Self.timeConstant(bandwidthHz: Double(range.count) * bands.binWidth)
        }
        levels = Array(repeating: Array(repeating: SpectrumBands.floorDB, count: bands.count), count: channelCount)
        power = Array(repeating: Array(repeating: 0, count: bands.count), count: channelCount)
    }

    /// The averaging time for a band `bandwidthHz` wide.
    public static func timeConstant(bandwidthHz: Double) -> Double {
        Swift.min(longestTimeConstant, measurementCycles / Swift.max(bandwidthHz, 1e-9))
    }

    /// Moves the average toward this frame's band levels (dB, `[channel][band]`) by `dt` seconds.
    /// The first step after `init` or `reset` takes the levels as they are.
    public mutating func advance(toward raw: [[Float]], dt: Double) {
        for channel in 0 ..< Swift.min(raw.count, power.count) {
            for band in 0 ..< Swift.min(raw[channel].count, power[channel].count) {
                let incoming = raw[channel][band] <= SpectrumBands.floorDB ? 0 : Float.pow(10, raw[channel][band] / 10)
                let alpha = primed ? SmoothingTimes.alpha(timeConstant: timeConstants[band], dt: dt) : 1
                let averaged = power[channel][band] + (incoming - power[channel][band]) * alpha
                power[channel][band] = averaged
                levels[channel][band] = averaged > 0 ? Swift.max(SpectrumBands.floorDB, 10 * Float.log10(averaged)) : SpectrumBands.floorDB
            }
        }
        primed = true
    }

    /// Forgets the past (after silence or a gap): the next step starts from its own levels.
    public mutating func reset() {
        primed = false
    }
}
