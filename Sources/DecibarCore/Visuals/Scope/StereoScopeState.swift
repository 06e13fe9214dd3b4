/// The stereo scope's state: the newest samples of both channels (what the goniometer plots, the
/// oldest faintest), the correlation and balance of the last 300 ms, and the gain the points are
/// drawn at (1: full scale reaches the edge; with auto gain, the loudest recent sample does).
public struct StereoScopeState {
    /// Seconds of audio plotted at once; older samples have faded out.
    public static let trail = 0.05
    /// The most points plotted (the trail at up to 96 kHz).
    public static let capacity = 4800
    /// How fast auto gain lets go of a peak, per second.
    public static let gainRelease = 0.5

    public let autoGain: Bool
    public private(set) var meter = StereoMeter()
    public private(set) var left: [Float]
    public private(set) var right: [Float]
    /// How many of `left` and `right` hold samples (the newest last).
    public private(set) var count = 0
    public private(set) var gain: Float = 1
    private var peak: Float = 0

    public init(autoGain: Bool = false) {
        self.autoGain = autoGain
        left = [Float](repeating: 0, count: Self.capacity)
        right = left
    }

    public var reading: StereoReading { meter.reading }

    /// A buffer as it is released: into the correlation and balance.
    public mutating func add(_ buffer: AudioBuffer) { meter.add(buffer) }

    /// The trail: the newest samples released by this frame.
    public mutating func update(_ frame: VisualFrame) {
        guard let format = frame.feed.format else { return }
        count = min(Self.capacity, Int(Self.trail * Double(format.sampleRate)))
        left.withUnsafeMutableBufferPointer { frame.feed.copyLatest(channel: 0, into: UnsafeMutableBufferPointer(rebasing: $0[0 ..< count])) }
        right.withUnsafeMutableBufferPointer { frame.feed.copyLatest(channel: 1, into: UnsafeMutableBufferPointer(rebasing: $0[0 ..< count])) }
        guard autoGain else { return }
        var loudest: Float = 0
        for index in 0 ..< count { loudest = max(loudest, abs(left[index]), abs(right[index])) }
        peak = max(loudest, peak * Float(Double.exp(-frame.dt * Self.gainRelease * 10)))
        gain = peak > 1e-4 ? min(100, 0.9 / peak) : 1
    }
}
