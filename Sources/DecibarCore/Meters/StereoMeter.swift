import RealModule

/// The stereo image of the first two channels, as a mastering meter's correlation and balance
/// show it: sums of L², R² and L·R, each decaying with a time constant (300 ms, like the
/// integration of a correlation meter's needle), so a reading covers the same stretch of sound
/// whatever the line or frame rate.
public struct StereoMeter: Sendable {
    /// The sums' time constant in seconds.
    public let timeConstant: Double
    private var left = 0.0, right = 0.0, product = 0.0
    private var decay = 0.0
    private var decayRate = 0

    public init(timeConstant: Double = 0.3) {
        self.timeConstant = timeConstant
    }

    /// Adds one buffer; a mono buffer counts as the same sound on both sides.
    public mutating func add(_ buffer: AudioBuffer) {
        let stride = buffer.channelCount, second = stride > 1 ? 1 : 0
        buffer.withSamples { samples in
            accumulate(count: buffer.frameCount, sampleRate: buffer.sampleRate) { (samples[$0 * stride], samples[$0 * stride + second]) }
        }
    }

    /// Adds `left.count` frames of two channels (the same samples twice for mono).
    public mutating func add(left first: UnsafeBufferPointer<Float>, right second: UnsafeBufferPointer<Float>, sampleRate: Int) {
        accumulate(count: min(first.count, second.count), sampleRate: sampleRate) { (first[$0], second[$0]) }
    }

    private mutating func accumulate(count: Int, sampleRate: Int, frame: (Int) -> (Float, Float)) {
        guard count > 0 else { return }
        if sampleRate != decayRate {
            decayRate = sampleRate
            decay = Double.exp(-1 / (timeConstant * Double(sampleRate)))
        }
        var l = left, r = right, p = product
        for index in 0 ..< count {
            let (first, second) = frame(index)
            let a = Double(first), b = Double(second)
            l = l * decay + a * a
            r = r * decay + b * b
            p = p * decay + a * b
        }
        left = l
        right = r
        product = p
    }

    /// Forgets what was heard (a seek).
    public mutating func reset() {
        left = 0
        right = 0
        product = 0
    }

    /// The reading over the last `timeConstant` or so.
    public var reading: StereoReading { StereoReading(left: left, right: right, product: product) }
}

/// Correlation, balance and width of a stretch of stereo sound.
public struct StereoReading: Sendable, Equatable {
    /// -1 (one side the other's inverse) through 0 (unrelated) to +1 (the same on both sides: mono).
    /// 0 in silence.
    public var correlation: Double
    /// -1 (all on the left) through 0 (even) to +1 (all on the right), by power. 0 in silence.
    public var balance: Double
    /// The side signal's share of the power, 0 (mono) through 0.5 (unrelated sides) to 1 (sides
    /// opposite): S² / (M² + S²) with M = (L+R)/2 and S = (L-R)/2.
    public var width: Double

    /// Sums below this are silence (-200 dB over a 300 ms window).
    static let silence = 1e-20

    public init(correlation: Double, balance: Double, width: Double) {
        self.correlation = correlation
        self.balance = balance
        self.width = width
    }

    /// From the sums of L², R² and L·R.
    public init(left: Double, right: Double, product: Double) {
        let total = left + right
        guard total > Self.silence else {
            self.init(correlation: 0, balance: 0, width: 0)
            return
        }
        let both = (left * right).squareRoot()
        let correlation = both > Self.silence ? min(1, max(-1, product / both)) : 0
        self.init(correlation: correlation, balance: (right - left) / total,
                  width: min(1, max(0, (total - 2 * product) / (2 * total))))
    }
}
