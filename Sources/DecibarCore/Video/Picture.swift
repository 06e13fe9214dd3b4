/// One decoded video frame as RGBA rows, top row first, and when it is to be seen: `time` on the
/// audio's clock (file time, seconds), for `duration` seconds.
public struct Picture: Sendable {
    public var pixels: [UInt8]
    public private(set) var width: Int
    public private(set) var height: Int
    public var time: Double
    public var duration: Double

    public init(width: Int = 0, height: Int = 0, time: Double = 0, duration: Double = 0) {
        self.width = width
        self.height = height
        self.time = time
        self.duration = duration
        pixels = Array(repeating: 0, count: width * height * 4)
    }

    /// Sets the size; the storage is kept (or grown) so a reused picture allocates only to grow.
    public mutating func resize(width: Int, height: Int) {
        self.width = width
        self.height = height
        let needed = width * height * 4
        if pixels.count < needed { pixels.append(contentsOf: repeatElement(0, count: needed - pixels.count)) }
    }

    /// The end of the time it is shown for.
    public var end: Double { time + duration }
}
