/// The bars that the level and spectrum pictures share: targets set each frame, smoothed on the
/// measured `dt`, caps that hold and fall, and the beat's lift.
public struct BarField {
    let settings: VisualSettings
    /// What the bars move toward, 0...1; the picture sets them each frame.
    public internal(set) var targets: [Float] = []
    public private(set) var smoother: BarSmoother
    public private(set) var caps: PeakCaps
    /// The smoothed values lifted by the beat (with `beatAccent`).
    private var lifted: [Float] = []

    /// How much taller bars are at the beat: a short lift, gone in a few tenths of a second.
    static let beatLift: Float = 0.18
    /// A bar this low counts as empty for the window to rest.
    static let restingValue: Float = 0.0005

    init(settings: VisualSettings) {
        self.settings = settings
        smoother = BarSmoother(count: 0, times: settings.smoothing)
        caps = PeakCaps(count: 0, fallRate: 0)
    }

    /// The bar values as drawn (smoothed, lifted on the beat with `beatAccent`), 0...1.
    public var values: [Float] { settings.beatAccent ? lifted : smoother.values }

    mutating func resize(to count: Int) {
        guard count != targets.count else { return }
        targets = Array(repeating: 0, count: count)
        smoother = BarSmoother(count: count, times: settings.smoothing)
        caps = PeakCaps(count: count, holdTime: settings.holdTime, fallRate: 0)
    }

    mutating func fall() {
        for index in targets.indices { targets[index] = 0 }
    }

    /// Smooths toward the targets, moves the caps (heights span `rangeDB` dB) and lifts by the beat.
    mutating func advance(dt: Double, rangeDB: Float, beatLevel: Float) {
        smoother.advance(toward: targets, dt: dt)
        if settings.caps {
            // Caps fall in dB/s; bar heights span `rangeDB` dB.
            caps.fallRate = settings.fallRate / Swift.max(1, rangeDB)
            caps.advance(toward: smoother.values, dt: dt)
        }
        guard settings.beatAccent else { return }
        lifted.removeAll(keepingCapacity: true)
        let lift = 1 + Self.beatLift * beatLevel
        for value in smoother.values { lifted.append(Swift.min(1, value * lift)) }
    }

    /// Every bar and cap settled at the floor.
    public var isAtRest: Bool {
        let settled = smoother.values.allSatisfy { $0 < Self.restingValue } && targets.allSatisfy { $0 == 0 }
        return settled && (!settings.caps || caps.values.allSatisfy { $0 < Self.restingValue })
    }

    public var meanValue: Float {
        var sum: Float = 0
        for value in smoother.values { sum += value }
        return sum / Float(Swift.max(1, smoother.values.count))
    }
}
