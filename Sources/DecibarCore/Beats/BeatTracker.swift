/// Beats from onset strength, one hop at a time, as soon as each can be known.
///
/// The tempo comes from `TempoEstimator` twice a second. Once there is one, the phase is taken
/// where the strength of the last seconds, folded at the beat period, peaks; from then on each
/// beat is expected a period after the last. The first clear onset peak from 5 % of a period
/// before that moment to 15 % after is the beat (said as soon as the peak is past; an earlier
/// onset twice as strong wins over it); otherwise the strongest onset within 15 % either side,
/// once that window has passed. A beat heard corrects
/// the phase at once and the period a little. When no onset comes by the end of that window, the
/// beat is said where it was expected (a rest, a syncopation), unless four in a row went unheard.
/// A tempo that the estimator reads 6 % away twice running is taken over, with a new phase. The
/// tempo told is the mean interval of the last eight beats heard one after the other.
///
/// Times are in hops: the strength given to the n-th `add` belongs to hop n (from 0). Storage is
/// made once; `add` allocates nothing.
public struct BeatTracker {
    public struct Beat: Equatable, Sendable {
        /// When the beat's onset peaked, in hops (fractional).
        public var hop: Double
        public var bpm: Double
        /// 0...1: how many of the recent beats an onset marked.
        public var confidence: Double
        /// Whether an onset marked this beat (false: the tempo carried it over a rest).
        public var isHeard: Bool
    }

    public let hopsPerSecond: Double
    private var tempo: TempoEstimator
    static let estimatesPerSecond = 2.0
    /// A beat's onset is looked for this far (a fraction of the period) each side of where it is expected.
    static let window = 0.15
    /// How much of a heard beat's timing error moves the period.
    static let periodCorrection = 0.1
    /// How far each heard beat moves the period toward the estimated one.
    static let estimatePull = 0.2
    /// An estimate this far (relative) from the period followed counts against it.
    static let tempoChange = 0.06
    /// Beats this far (a fraction of the period) from where the folded strength puts them, twice running, move there.
    static let phaseChange = 0.2
    static let unheardBeatsToRest = 4
    /// Estimates in a row (half a second apart) at twice or half the tempo before it is taken.
    static let octaveDisagreements = 8
    static let unheardBeatsToForget = 8
    static let intervalCount = 8
    /// An onset this many times the mean strength (and half a beat's) is taken as the beat at once,
    /// unless it comes more than `earliness` of a period before the expected moment.
    static let clearOnset: Float = 2
    static let earliness = 0.05
    /// An early onset this many times stronger than the clear one after it is the beat instead.
    static let earlyOverOnTime: Float = 2

    private var hop = -1
    /// Strength of the last three hops, oldest first.
    private var recent: (Float, Float, Float) = (0, 0, 0)
    /// Mean strength over about a second (the peak threshold).
    private var mean: Float = 0
    /// Mean strength of the onsets that marked beats.
    private var beatStrength: Float = 0
    private var hopsToEstimate = 0
    private var disagreements = 0
    /// The hop of the last onset peak.
    private var lastPeak = Int.min / 2
    /// A tempo is taken up only with an onset this recent (s).
    static let recentOnset = 2.0
    private var offPhase = 0

    /// Hops per beat being followed; nil until a tempo is known.
    public private(set) var period: Double?
    /// The estimator's latest period that agreed with it.
    private var estimatedPeriod = 0.0
    private var expected = 0.0
    /// The strongest onset so far in the window of the expected beat (strength 0: none).
    private var candidate: (hop: Double, strength: Float) = (0, 0)
    private var lastHeard: Double?
    private var unheardInRow = 0
    private var intervals: [Double]
    private var intervalNext = 0
    private var intervalFilled = 0
    public private(set) var confidence = 0.0

    /// How sure the tracker must be before its tempo is told and its beats are followed: two
    /// beats heard in a row (0.2, then 0.36).
    public static let lockConfidence = 0.35

    /// Whether the beats are followed: a tempo, and onsets marking its beats.
    public var isLocked: Bool { period != nil && confidence >= Self.lockConfidence }

    public init(hopsPerSecond: Double) {
        self.hopsPerSecond = hopsPerSecond
        tempo = TempoEstimator(hopsPerSecond: hopsPerSecond)
        intervals = Array(repeating: 0, count: Self.intervalCount)
    }

    /// The tempo told now, nil until one is known.
    public var bpm: Double? {
        guard let period else { return nil }
        guard intervalFilled >= 2 else { return 60 * hopsPerSecond / period }
        var sum = 0.0
        for index in 0 ..< intervalFilled { sum += intervals[index] }
        return 60 * hopsPerSecond * Double(intervalFilled) / sum
    }

    /// Takes the strength of the next hop; returns a beat when one is known by now.
    public mutating func add(_ strength: Float) -> Beat? {
        hop += 1
        recent = (recent.1, recent.2, strength)
        tempo.add(strength)
        // (A stream of a few hertz has hops longer than a second: the mean is then the last hop.)
        mean += (strength - mean) * Float(min(1, 1 / hopsPerSecond))
        hopsToEstimate -= 1
        if hopsToEstimate <= 0 {
            hopsToEstimate = Int((hopsPerSecond / Self.estimatesPerSecond).rounded())
            if let estimate = tempo.estimate() { follow(estimate) }
        }
        // A peak at the previous hop, now that the hop after it is lower.
        let (before, top, after) = recent
        let isPeak = top > before && top >= after && top > mean
        if isPeak { lastPeak = hop - 1 }
        guard let period else { return nil }
        let reach = Self.window * period
        if isPeak {
            let curvature = before - 2 * top + after
            let offset = curvature < 0 ? Double(0.5 * (before - after) / curvature) : 0
            let peak = Double(hop - 1) + offset
            if abs(peak - expected) <= reach {
                // A clear onset is the beat at once; a weaker one waits for the window to close. So
                // does one well before the expected moment: a sound a little ahead of every beat (a
                // held note cut short, a grace note) would otherwise be taken each time, first, and
                // the beats would follow it rather than the strongest onset of the window.
                if top >= max(Self.clearOnset * mean, 0.5 * beatStrength), peak >= expected - Self.earliness * period {
                    // Unless the early one was far stronger: the drums back after a break, a little
                    // ahead of a phase kept on the break's softer onsets.
                    if candidate.strength > Self.earlyOverOnTime * top {
                        return heard(at: candidate.hop, strength: candidate.strength, period: period)
                    }
                    return heard(at: peak, strength: top, period: period)
                }
                if top > candidate.strength { candidate = (peak, top) }
            }
        }
        guard Double(hop - 1) > expected + reach else { return nil }
        if candidate.strength > 0 {
            return heard(at: candidate.hop, strength: candidate.strength, period: period)
        }
        // The window passed without an onset: the beat was where it was expected.
        let beat = expected
        expected += period
        unheardInRow += 1
        confidence *= 0.8
        if unheardInRow >= Self.unheardBeatsToForget {
            forgetTempo()
            return nil
        }
        guard unheardInRow < Self.unheardBeatsToRest else { return nil }
        return Beat(hop: beat, bpm: bpm ?? 0, confidence: confidence, isHeard: false)
    }

    private mutating func heard(at peak: Double, strength: Float, period: Double) -> Beat {
        var period = period + Self.periodCorrection * (peak - expected)
        // Held near the estimate: corrections by onsets a little early or late must not add up.
        period += Self.estimatePull * (estimatedPeriod - period)
        if let lastHeard, unheardInRow == 0, abs(peak - lastHeard - period) <= Self.window * period {
            intervals[intervalNext] = peak - lastHeard
            intervalNext = (intervalNext + 1) % Self.intervalCount
            intervalFilled = min(intervalFilled + 1, Self.intervalCount)
        }
        period = min(max(period, 60 * hopsPerSecond / tempo.maxBPM), 60 * hopsPerSecond / tempo.minBPM)
        self.period = period
        lastHeard = peak
        unheardInRow = 0
        expected = peak + period
        candidate = (0, 0)
        beatStrength = beatStrength == 0 ? strength : beatStrength + (strength - beatStrength) * 0.125
        confidence += (1 - confidence) * 0.2
        return Beat(hop: peak, bpm: bpm ?? 60 * hopsPerSecond / period, confidence: confidence, isHeard: true)
    }

    private mutating func follow(_ estimate: TempoEstimator.Estimate) {
        guard let period else {
            // Not from the memory of music that has stopped.
            if Double(hop - lastPeak) < Self.recentOnset * hopsPerSecond { start(period: estimate.period) }
            return
        }
        let ratio = estimate.period / period
        if abs(ratio - 1) > Self.tempoChange {
            disagreements += 1
            // Twice or half the tempo is the same music read another way: it must insist longer.
            let isOctave = abs(ratio - 2) < 2 * Self.tempoChange || abs(ratio - 0.5) < Self.tempoChange / 2
            if disagreements >= (isOctave ? Self.octaveDisagreements : 2) { start(period: estimate.period) }
            return
        }
        disagreements = 0
        estimatedPeriod = estimate.period
        // The right tempo on the wrong phase (the off-beats): the folded strength says where the beats are.
        let (phase, _) = strongestPhase(period: period)
        var difference = (expected - phase).truncatingRemainder(dividingBy: period)
        if difference > period / 2 { difference -= period }
        if difference < -period / 2 { difference += period }
        if abs(difference) > Self.phaseChange * period {
            offPhase += 1
            if offPhase >= 2 { start(period: period) }
        } else {
            offPhase = 0
        }
    }

    /// The hop of the latest moment where the strength of the last seconds, folded at `period`,
    /// peaks, and that peak's folded strength.
    private func strongestPhase(period: Double) -> (hop: Double, strength: Float) {
        let span = min(Double(tempo.historyCount - 1), 4 * hopsPerSecond)
        var best = (hopsAgo: 0, sum: -Float.infinity)
        for hopsAgo in 0 ..< max(1, Int(period)) {
            var sum: Float = 0
            var position = Double(hopsAgo)
            while position <= span {
                let below = Int(position)
                let fraction = Float(position - Double(below))
                sum += tempo.strength(hopsAgo: below) * (1 - fraction) + tempo.strength(hopsAgo: below + 1) * fraction
                position += period
            }
            if sum > best.sum { best = (hopsAgo, sum) }
        }
        return (Double(hop - best.hopsAgo), best.sum)
    }

    /// Follows `period` from the phase where the strength of the last seconds, folded at it, peaks.
    private mutating func start(period: Double) {
        disagreements = 0
        offPhase = 0
        intervalFilled = 0
        intervalNext = 0
        lastHeard = nil
        unheardInRow = 0
        candidate = (0, 0)
        self.period = period
        estimatedPeriod = period
        let (last, _) = strongestPhase(period: period)
        // A beat that peaks at this very hop is not confirmed until the next: expect it still.
        expected = Double(hop) - last <= 1 ? last : last + period
    }

    private mutating func forgetTempo() {
        period = nil
        confidence = 0
        intervalFilled = 0
        lastHeard = nil
        unheardInRow = 0
        beatStrength = 0
    }

    /// Forgets everything (a seek, a new stream).
    public mutating func reset() {
        self = BeatTracker(hopsPerSecond: hopsPerSecond)
    }
}
