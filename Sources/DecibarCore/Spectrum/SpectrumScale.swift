/// Maps band levels in dB to bar heights: `floorDB` (and below) is an empty bar, 0 dB a full one.
public struct SpectrumScale: Sendable, Equatable {
    public var floorDB: Float

    public init(floorDB: Float = -70) {
        precondition(floorDB < 0, "the floor must be below 0 dB")
        self.floorDB = floorDB
    }

    public func height(_ level: Float) -> Float {
        Swift.min(1, Swift.max(0, (level - floorDB) / -floorDB))
    }

    /// Heights for `levels[channel][band]`, written into `heights` (resized only when the shape changes).
    public func normalize(_ levels: [[Float]], into heights: inout [[Float]]) {
        if heights.count != levels.count || zip(heights, levels).contains(where: { $0.count != $1.count }) {
            heights = levels.map { Array(repeating: 0, count: $0.count) }
        }
        for channel in levels.indices {
            for band in levels[channel].indices { heights[channel][band] = height(levels[channel][band]) }
        }
    }
}
