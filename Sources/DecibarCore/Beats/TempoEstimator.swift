import RealModule

/// The tempo of the last few seconds of onset strength: the autocorrelation of the strength,
/// read by a comb at each candidate beat period.
///
/// A period scores the mean autocorrelation at its first four multiples (so a period twice too
/// short, whose odd multiples fall between the beats, scores half), weighted by a log-normal
/// preference around 120 BPM (one octave wide) that decides what the music leaves open. Storage
/// is made once; `estimate` allocates nothing.
public struct TempoEstimator {
    public struct Estimate: Equatable, Sendable {
        /// Hops per beat (fractional).
        public var period: Double
        /// How clearly the strength repeats at that period, 0...1 (its normalized comb score).
        public var salience: Double
    }

    public let hopsPerSecond: Double
    public let minBPM: Double
    public let maxBPM: Double
    static let preferredBPM = 120.0
    /// Width of the preference, in octaves (one standard deviation).
    static let preferenceOctaves = 1.0
    static let combTeeth = 4
    /// Candidate periods are tried this far apart (hops), then refined.
    static let candidateStep = 0.1

    /// The newest strengths, oldest first once unrolled: a ring of `capacity` values.
    private var ring: [Float]
    private var next = 0
    private var count = 0
    private var linear: [Float]
    private var correlation: [Float]

    /// - Parameter historySeconds: the strength remembered: longer is steadier, shorter follows a change sooner.
    public init(hopsPerSecond: Double, historySeconds: Double = 8, minBPM: Double = 60, maxBPM: Double = 200) {
        self.hopsPerSecond = hopsPerSecond
        self.minBPM = minBPM
        self.maxBPM = maxBPM
        let capacity = Int((historySeconds * hopsPerSecond).rounded(.up))
        ring = Array(repeating: 0, count: capacity)
        linear = Array(repeating: 0, count: capacity)
        let longest = Double(Self.combTeeth) * 60 / minBPM * hopsPerSecond
        correlation = Array(repeating: 0, count: min(capacity, Int(longest.rounded(.up)) + 2))
    }

    /// Hops remembered so far.
    public var historyCount: Int { count }
    public var capacity: Int { ring.count }

    public mutating func add(_ strength: Float) {
        ring[next] = strength
        next = (next + 1) % ring.count
        count = min(count + 1, ring.count)
    }

    public mutating func reset() {
        next = 0
        count = 0
    }

    /// The strength `hopsAgo` hops before the newest (0 is the newest); 0 beyond the history.
    public func strength(hopsAgo: Int) -> Float {
        guard hopsAgo >= 0, hopsAgo < count else { return 0 }
        return ring[(next - 1 - hopsAgo + ring.count * 2) % ring.count]
    }

    /// Strength needed before a tempo is told: enough for two beats of the slowest tempo and a third.
    static let minimumHistorySeconds = 3.0

    /// The best period of the history, or nil while it is shorter than `minimumHistorySeconds`
    /// or nothing repeats in it.
    public mutating func estimate() -> Estimate? {
        let shortest = 60 / maxBPM * hopsPerSecond
        let longest = 60 / minBPM * hopsPerSecond
        guard Double(count) >= Self.minimumHistorySeconds * hopsPerSecond else { return nil }
        let usable = count
        let lags = min(correlation.count, usable - 1)
        // Unroll the ring, less its mean, and correlate (each lag normalized by its overlap).
        let start = (next - usable + ring.count) % ring.count
        var mean: Float = 0
        for index in 0 ..< usable { mean += ring[(start + index) % ring.count] }
        mean /= Float(usable)
        var energy: Float = 0
        linear.withUnsafeMutableBufferPointer { linear in
            for index in 0 ..< usable {
                let value = ring[(start + index) % ring.count] - mean
                linear[index] = value
                energy += value * value
            }
            correlation.withUnsafeMutableBufferPointer { correlation in
                for lag in 0 ..< lags {
                    var sum: Float = 0
                    for index in lag ..< usable { sum += linear[index] * linear[index - lag] }
                    correlation[lag] = sum / Float(usable - lag)
                }
            }
        }
        let zero = energy / Float(usable)
        guard zero > 0 else { return nil }

        func correlationAt(_ lag: Double) -> Double? {
            let below = Int(lag)
            guard below + 1 < lags else { return nil }
            let fraction = lag - Double(below)
            return Double(correlation[below]) * (1 - fraction) + Double(correlation[below + 1]) * fraction
        }
        func score(_ period: Double) -> Double {
            var sum = 0.0
            var teeth = 0
            for tooth in 1 ... Self.combTeeth {
                guard let value = correlationAt(period * Double(tooth)) else { break }
                sum += value
                teeth += 1
            }
            guard teeth >= 2 else { return -.infinity }
            let octaves = Double.log2(60 * hopsPerSecond / period / Self.preferredBPM) / Self.preferenceOctaves
            return sum / Double(teeth) * Double.exp(-0.5 * octaves * octaves)
        }
        var best = (period: 0.0, score: -Double.infinity)
        var period = shortest
        while period <= longest {
            let value = score(period)
            if value > best.score { best = (period, value) }
            period += Self.candidateStep
        }
        guard best.score > 0 else { return nil }
        // Refine between the neighbouring candidates with a parabola through the three scores.
        let (left, right) = (score(best.period - Self.candidateStep), score(best.period + Self.candidateStep))
        var refined = best.period
        if left.isFinite && right.isFinite {
            let curvature = left - 2 * best.score + right
            if curvature < 0 { refined += Self.candidateStep * 0.5 * (left - right) / curvature }
        }
        // The comb cannot tell a period from its double when every other beat is as strong, and
        // the preference then picks the slower of 87 and 174 BPM: evenly spaced onsets half-way
        // through the slower beat make it the faster (a band's off-beats are weaker than its kicks).
        // Only between periods the comb finds about as likely.
        func peakScore(near period: Double) -> Double {
            var top = -Double.infinity
            for step in -10 ... 10 { top = max(top, score(period + Double(step) * Self.candidateStep)) }
            return top
        }
        let faster = refined / 2
        if faster >= shortest, peakScore(near: faster) >= Self.comparableScore * best.score,
           halfBeatRatio(period: refined) >= Self.evenHalfBeats {
            refined = faster
        }
        return Estimate(period: refined, salience: min(1, max(0, best.score / Double(zero))))
    }

    /// Half-beat onsets at least this strong, relative to the beat's, make the beat half as long.
    static let evenHalfBeats = 0.7
    /// Scores within this ratio of the best are an octave question for the half-beat onsets.
    static let comparableScore = 0.75

    /// The strength folded at `period`: at the half-beat phase, relative to the beat phase (the
    /// strongest phase), each summed over three neighbouring hops.
    private mutating func halfBeatRatio(period: Double) -> Double {
        let bins = max(2, Int(period.rounded()))
        guard bins <= linear.count else { return 0 }
        // Moved out for the loop, which reads the ring: no copy, no allocation.
        var folded: [Float] = []
        swap(&folded, &linear)
        defer { swap(&folded, &linear) }
        for bin in 0 ..< bins { folded[bin] = 0 }
        for hopsAgo in 0 ..< count {
            let phase = Double(hopsAgo).truncatingRemainder(dividingBy: period) / period
            folded[Int(phase * Double(bins)) % bins] += strength(hopsAgo: hopsAgo)
        }
        // Three hops together: an onset's strength spreads over neighbouring hops as the period
        // is not a whole number of them.
        func near(_ bin: Int) -> Float {
            folded[(bin - 1 + bins) % bins] + folded[bin % bins] + folded[(bin + 1) % bins]
        }
        var beat = 0
        for bin in 1 ..< bins where folded[bin] > folded[beat] { beat = bin }
        let top = near(beat)
        guard top > 0 else { return 0 }
        return Double(near(beat + bins / 2) / top)
    }
}
