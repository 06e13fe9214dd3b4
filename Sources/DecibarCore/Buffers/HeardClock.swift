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
/// cycle's: the offset it gives is late by anywhere up to a cycle (pipewire-pulse's came 0 to 2
/// ms apart), never early. The lowest offset of the last `window` seconds of snapshots is used;
/// the window is short enough to follow the sound card's drift against the host clock.
public struct HeardClock: Sendable {
    /// Seconds of snapshots the offset is the lowest of.
    public static let window = 2.0
    /// Snapshots kept at most (more than a window's worth at the pace they are asked for).
    public static let capacity = 64

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
        var lowest = Double.infinity
        for kept in snapshots where kept.time >= time - Self.window { lowest = min(lowest, kept.offset) }
        offset = lowest
    }

    /// Heard time = `offset + position / rate`; nil before the first snapshot.
    public private(set) var offset: Double?

    /// When the frame just before `position` is heard.
    public func heardTime(ofPosition position: Int64, sampleRate: Int) -> Double? {
        offset.map { $0 + Double(position) / Double(sampleRate) }
    }
}
