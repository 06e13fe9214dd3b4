/// A display-rate one-pole low-pass per bar, driven by the measured frame time.
///
/// `alpha = 1 - exp(-dt/tau)` makes the motion the same at 30, 60 or 144 Hz; a fixed per-frame
/// factor would make bars twice as fast at 120 Hz as at 60 Hz.
public struct BarSmoother: Sendable {
    public var times: SmoothingTimes
    public private(set) var values: [Float]

    public init(count: Int, times: SmoothingTimes = .default) {
        self.times = times
        self.values = Array(repeating: 0, count: count)
    }

    /// Moves every bar toward its target by the share `dt` seconds allow.
    /// A change in bar count keeps what it can and starts new bars at zero.
    public mutating func advance(toward targets: [Float], dt: Double) {
        if targets.count != values.count {
            values = (0 ..< targets.count).map { $0 < values.count ? values[$0] : 0 }
        }
        let attack = SmoothingTimes.alpha(timeConstant: times.attack, dt: dt)
        let release = SmoothingTimes.alpha(timeConstant: times.release, dt: dt)
        for index in values.indices {
            let current = values[index]
            let target = targets[index]
            let alpha = target > current ? attack : release
            values[index] = current + (target - current) * alpha
        }
    }

    /// Jumps straight to `targets` (first frame, or a fixed picture).
    public mutating func reset(to targets: [Float]) {
        values = targets
    }
}
