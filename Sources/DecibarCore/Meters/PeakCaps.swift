/// Caps that jump to each new maximum, hold there, then fall at a steady rate, one per bar.
///
/// Time is measured, never counted in frames: each step spends `dt` first on what is left of the
/// hold and then on falling, so the caps follow the same path at 30, 60 or 144 frames a second.
/// Values are in any linear unit (bar height 0...1, or dB); `fallRate` is that unit per second.
public struct PeakCaps: Sendable, Equatable {
    public var holdTime: Double
    public var fallRate: Float
    public private(set) var values: [Float]
    private var holdLeft: [Double]

    public static let defaultHoldTime = 1.0

    public init(count: Int, holdTime: Double = defaultHoldTime, fallRate: Float, initial: Float = 0) {
        precondition(holdTime >= 0 && fallRate >= 0, "hold and fall must not be negative")
        self.holdTime = holdTime
        self.fallRate = fallRate
        values = Array(repeating: initial, count: count)
        holdLeft = Array(repeating: 0, count: count)
    }

    /// Moves every cap on by `dt` seconds toward the bars' `current` values.
    public mutating func advance(toward current: [Float], dt: Double) {
        if current.count != values.count {
            values = current
            holdLeft = Array(repeating: holdTime, count: current.count)
            return
        }
        let step = Swift.max(0, dt)
        for index in values.indices {
            let value = current[index]
            if value >= values[index] {
                values[index] = value
                holdLeft[index] = holdTime
                continue
            }
            var remaining = step
            let held = Swift.min(holdLeft[index], remaining)
            holdLeft[index] -= held
            remaining -= held
            if remaining > 0 {
                values[index] = Swift.max(value, values[index] - fallRate * Float(remaining))
            }
        }
    }
}
