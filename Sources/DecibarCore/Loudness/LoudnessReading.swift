import RealModule

/// EBU R128 / ITU-R BS.1770 loudness of what was measured: momentary (last 400 ms), short-term
/// (last 3 s) and integrated loudness in LUFS, the loudness range in LU, and the highest true peak
/// per channel so far.
///
/// A loudness under the absolute gate (-70 LUFS), silence included, is nil: there is nothing to
/// read, and -inf would say otherwise. Fixed storage, so readings are made every frame without
/// allocating.
public struct LoudnessReading: Sendable, Equatable {
    public static let absoluteGateLUFS = -70.0
    /// True peak of silence, in dBTP, as levels' floor.
    public static let floorDBTP = -160.0

    public var momentaryLUFS: Double?
    public var shortTermLUFS: Double?
    public var integratedLUFS: Double?
    /// Nil until some audio is over the gate.
    public var loudnessRangeLU: Double?
    public var channelCount: Int
    private var truePeaks: InlineArray<8, Double>

    public init(channelCount: Int = 0) {
        self.channelCount = Swift.min(8, Swift.max(0, channelCount))
        truePeaks = InlineArray(repeating: Self.floorDBTP)
    }

    /// The highest true peak of `channel` so far, in dBTP (`floorDBTP` for silence).
    public func truePeakDBTP(channel: Int) -> Double { truePeaks[channel] }

    public mutating func setTruePeak(linear: Double, channel: Int) {
        truePeaks[channel] = linear > 0 ? Swift.max(Self.floorDBTP, 20 * Double.log10(linear)) : Self.floorDBTP
    }

    /// The highest true peak of any channel.
    public var truePeakDBTP: Double {
        var highest = Self.floorDBTP
        for channel in 0 ..< channelCount { highest = Swift.max(highest, truePeaks[channel]) }
        return highest
    }

    /// A loudness as reported: nil under the gate or when not a number.
    public static func gated(_ lufs: Double) -> Double? {
        lufs.isFinite && lufs >= absoluteGateLUFS ? lufs : nil
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.momentaryLUFS == rhs.momentaryLUFS && lhs.shortTermLUFS == rhs.shortTermLUFS
            && lhs.integratedLUFS == rhs.integratedLUFS && lhs.loudnessRangeLU == rhs.loudnessRangeLU
            && lhs.channelCount == rhs.channelCount
            && (0 ..< lhs.channelCount).allSatisfy { lhs.truePeaks[$0] == rhs.truePeaks[$0] }
    }
}
