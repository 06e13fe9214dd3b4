/// Band levels in dB moving as the window's spectrum bars do: band powers averaged over what each
/// band's width needs (`BandPowerAverager`), then the bars' attack/release smoother on levels held
/// at or above `floorDB` (the level of an empty bar). `levels --mode spectrum` prints these.
///
/// The window smooths bar heights, which are these levels mapped linearly to 0...1 (without
/// automatic sensitivity), so both move alike.
public struct SpectrumSmoother: Sendable {
    public let floorDB: Float
    public private(set) var averager: BandPowerAverager
    private var smoother: BarSmoother
    private var targets: [Float]
    /// The smoothed levels, `[channel][band]`, reused every step.
    public private(set) var levels: [[Float]]
    private var primed = false

    public init(bands: SpectrumBands, channelCount: Int, times: SmoothingTimes = .default, floorDB: Float) {
        self.floorDB = floorDB
        averager = BandPowerAverager(bands: bands, channelCount: channelCount)
        smoother = BarSmoother(count: channelCount * bands.count, times: times)
        targets = Array(repeating: floorDB, count: channelCount * bands.count)
        levels = Array(repeating: Array(repeating: floorDB, count: bands.count), count: channelCount)
    }

    /// Moves on by `dt` seconds toward this frame's analysis (dB, `[channel][band]`).
    public mutating func advance(toward raw: [[Float]], dt: Double) {
        averager.advance(toward: raw, dt: dt)
        let bandCount = levels.first?.count ?? 0
        for channel in levels.indices {
            for band in 0 ..< bandCount {
                targets[channel * bandCount + band] = Swift.max(floorDB, averager.levels[channel][band])
            }
        }
        // The first step starts at the floor and rises as a bar does from an empty window.
        if !primed {
            smoother.reset(to: Array(repeating: floorDB, count: targets.count))
            primed = true
        }
        smoother.advance(toward: targets, dt: dt)
        for channel in levels.indices {
            for band in 0 ..< bandCount { levels[channel][band] = smoother.values[channel * bandCount + band] }
        }
    }
}
