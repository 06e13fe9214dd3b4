/// Where a capture stream's samples are heard, from the server's timing snapshots.
///
/// A snapshot says: at host time `time`, the server had queued `written` frames of the stream,
/// held `unqueued` seconds more that were captured but not yet queued, and the output needs
/// `outputLatency` seconds to play what was just captured. The newest captured frame is therefore
/// heard at `time + outputLatency`, and any frame `position` at
/// `time + outputLatency - (written + unqueued·rate - position) / rate`: an offset plus
/// `position / rate`.
///
/// A snapshot is taken between two of the server's cycles, and its count of frames is the last
/// cycle's: the offset it gives is mostly late by anywhere up to a cycle (pipewire-pulse's came 0
/// to 2 ms apart). Now and then, on a busy machine, one reads early (frames counted after its
/// time was taken): the lowest offset then stepped a cycle and more early for two seconds. So the
/// offset used is the fifth-lowest of every five (the 20th percentile) of the last `window`
/// seconds of snapshots: near the low edge, past a few early ones. The window is short enough to
/// follow the sound card's drift against the host clock. When the stream's time moves later (a
/// cycle the graph missed is heard a cycle late), every snapshot reads late: once the last
/// `jumpCount` all read more than `jumpTolerance` later than the offset in use, the older ones
/// are forgotten and the offset follows at once, not two seconds later. While the last snapshot
/// reads that late (`isDoubting`), the next ones are asked for at once, so the five come within
/// a few milliseconds rather than half a second: clicks in that half second were a cycle off.
public struct HeardClock: Sendable {
    /// Seconds of snapshots the offset is the lowest of.
    public static let window = 2.0
    /// Snapshots kept at most (more than a window's worth at the pace they are asked for).
    public static let capacity = 64
    /// How many snapshots in a row, each this much later than the offset, mean the time moved.
    public static let jumpCount = 5
    public static let jumpTolerance = 0.004

    private var snapshots: [(time: Double, offset: Double)] = []
    private var next = 0

    public init() {
        snapshots.reserveCapacity(Self.capacity)
    }

    /// Forgets every snapshot (a new stream).
    public mutating func reset() {
        snapshots.removeAll(keepingCapacity: true)
        next = 0
        offset = nil
        isDoubting = false
    }

    /// Takes one snapshot (times in seconds on the host clock, `written` in frames).
    public mutating func note(time: Double, written: Int64, unqueued: Double, outputLatency: Double, sampleRate: Int) {
        let snapshot = (time: time, offset: time + outputLatency - unqueued - Double(written) / Double(sampleRate))
        if snapshots.count < Self.capacity {
            snapshots.append(snapshot)
        } else {
            snapshots[next] = snapshot
        }
        next = (next + 1) % Self.capacity
        if let current = offset, snapshots.count >= Self.jumpCount, recentAreLate(than: current + Self.jumpTolerance) {
            keepRecent(Self.jumpCount)
            // The time just moved: the lowest of those that came after.
            offset = snapshots.reduce(Double.infinity) { min($0, $1.offset) }
        } else {
            offset = Self.lowEdge(of: snapshots, since: time - Self.window)
        }
        isDoubting = offset.map { snapshot.offset > $0 + Self.jumpTolerance } ?? false
    }

    /// Whether the last snapshot read later than the offset by more than `jumpTolerance`: the
    /// stream's time may have moved, and more snapshots will say.
    public private(set) var isDoubting = false

    /// Whether the last `jumpCount` snapshots all give an offset later than `bound`.
    private func recentAreLate(than bound: Double) -> Bool {
        (1 ... Self.jumpCount).allSatisfy { back in
            snapshots[(next - back + snapshots.count) % snapshots.count].offset > bound
        }
    }

    /// Forgets all but the last `count` snapshots (without allocating).
    private mutating func keepRecent(_ count: Int) {
        withUnsafeTemporaryAllocation(of: (time: Double, offset: Double).self, capacity: count) { kept in
            for index in 0 ..< count {
                kept[index] = snapshots[(next - count + index + snapshots.count) % snapshots.count]
            }
            snapshots.removeAll(keepingCapacity: true)
            for index in 0 ..< count { snapshots.append(kept[index]) }
        }
        next = count % Self.capacity
    }

    /// The 20th percentile of the offsets of snapshots taken since `start`, without sorting a copy
    /// (no allocation): the value with as many below it as its rank.
    private static func lowEdge(of snapshots: [(time: Double, offset: Double)], since start: Double) -> Double? {
        let count = snapshots.count { $0.time >= start }
        guard count > 0 else { return nil }
        let rank = count / 5
        for candidate in snapshots where candidate.time >= start {
            var below = 0, equal = 0
            for other in snapshots where other.time >= start {
                if other.offset < candidate.offset { below += 1 } else if other.offset == candidate.offset { equal += 1 }
            }
            if below <= rank && rank < below + equal { return candidate.offset }
        }
        return nil
    }

    /// Heard time = `offset + position / rate`; nil before the first snapshot.
    public private(set) var offset: Double?

    /// When the frame just before `position` is heard.
    public func heardTime(ofPosition position: Int64, sampleRate: Int) -> Double? {
        offset.map { $0 + Double(position) / Double(sampleRate) }
    }
}
