/// Maps dBFS onto 0...1 for drawing: `floor` and below is 0, `ceiling` and above is 1.
public struct LevelScale: Sendable, Equatable {
    public var floorDB: Float
    public var ceilingDB: Float

    public init(floorDB: Float = -60, ceilingDB: Float = 0) {
        precondition(ceilingDB > floorDB, "the dB range must not be empty")
        self.floorDB = floorDB
        self.ceilingDB = ceilingDB
    }

    @inlinable
    public func normalized(_ decibels: Float) -> Float {
        guard decibels.isFinite else { return decibels > 0 ? 1 : 0 }
        return Swift.min(1, Swift.max(0, (decibels - floorDB) / (ceilingDB - floorDB)))
    }
}
