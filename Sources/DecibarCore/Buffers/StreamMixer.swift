/// Sums up to 16 capture streams (one per playback stream of the apps listened to) into one
/// timeline of interleaved samples, and keeps that timeline going in silence when none plays.
///
/// Each stream has a lane: a queue of the frames it delivered that are not yet mixed. The mix
/// moves on by what every *playing* lane has (streams of one output arrive together, so this
/// adds no delay); a lane that has said nothing for `patience` seconds (its app paused, its
/// output stalled) no longer holds the others back. A closed lane's frames are still mixed, so a
/// stream that ends loses nothing at its edge. With no lane playing the mix is silence, emitted
/// by the clock, so a reader sees time pass (-160 dBFS), never a stale buffer.
///
/// All memory is taken at `init`; appending and mixing never allocate.
public final class StreamMixer {
    public static let maximumLanes = 16

    /// Receives mixed frames in order: interleaved samples, or nil for that many frames of silence.
    public typealias Emit = (_ samples: UnsafeBufferPointer<Float>?, _ frames: Int) -> Void

    public let channelCount: Int
    public let sampleRate: Int
    /// Frames a lane can queue; a lane that would hold more moves the mix on (the others underrun).
    public let capacity: Int
    /// Seconds a lane may deliver nothing before the mix stops waiting for it.
    public let patience: Double
    /// Frames mixed so far (silence included).
    public private(set) var position: Int64 = 0

    private struct Lane {
        var isOpen = false
        /// Its stream ended: the queued frames are mixed, then the lane is free.
        var isClosing = false
        /// When it last delivered; -infinity until its first delivery (a stream that has not started holds nothing up).
        var lastDelivery = -Double.infinity
        var readIndex = 0
        var count = 0
    }

    private var lanes: [Lane]
    private let storage: UnsafeMutablePointer<Float>
    private let mixed: UnsafeMutablePointer<Float>
    /// The time and position of the last frames mixed from lanes; silence is counted from there.
    private var anchor: (time: Double, position: Int64)?

    public init(channelCount: Int, sampleRate: Int, capacity: Int? = nil, patience: Double) {
        precondition(channelCount > 0 && sampleRate > 0)
        self.channelCount = channelCount
        self.sampleRate = sampleRate
        // A quarter second by default: far more than one delivery, and untouched pages cost nothing.
        self.capacity = max(AudioBuffer.frameCapacity, capacity ?? sampleRate / 4)
        self.patience = patience
        lanes = Array(repeating: Lane(), count: Self.maximumLanes)
        storage = .allocate(capacity: Self.maximumLanes * self.capacity * channelCount)
        mixed = .allocate(capacity: self.capacity * channelCount)
    }

    deinit {
        storage.deallocate()
        mixed.deallocate()
    }

    /// Lanes open (closing ones included).
    public var openLaneCount: Int { lanes.count(where: \.isOpen) }

    /// Frames queued on `lane`.
    public func queuedFrames(on lane: Int) -> Int { lanes[lane].count }

    /// Takes a free lane for a new stream; nil when all 16 are in use.
    public func openLane() -> Int? {
        guard let lane = lanes.firstIndex(where: { !$0.isOpen }) else { return nil }
        lanes[lane] = Lane(isOpen: true)
        return lane
    }

    /// Marks the lane's stream ended: what it queued is still mixed, then the lane frees itself.
    public func closeLane(_ lane: Int, now: Double, emit: Emit) {
        guard lanes[lane].isOpen else { return }
        lanes[lane].isClosing = true
        mix(now: now, emit: emit)
    }

    /// Queues `frames` frames delivered by the lane's stream (nil samples: a hole, kept as silence)
    /// and mixes what is ready.
    public func append(_ samples: UnsafeBufferPointer<Float>?, frames: Int, to lane: Int, now: Double, emit: Emit) {
        guard lanes[lane].isOpen, !lanes[lane].isClosing else { return }
        lanes[lane].lastDelivery = now
        var done = 0
        while done < frames {
            let piece = min(frames - done, capacity)
            let overflow = lanes[lane].count + piece - capacity
            // A lane far ahead of the others: they are late, not it. Mix on to make room.
            if overflow > 0 { mixFrames(overflow, emit: emit) }
            write(samples.map { UnsafeBufferPointer(rebasing: $0[(done * channelCount)..<((done + piece) * channelCount)]) },
                  frames: piece, to: lane)
            done += piece
        }
        mix(now: now, emit: emit)
    }

    /// Mixes what every playing lane has; with none playing, flushes the rest and then emits
    /// the silence due since the last frames mixed. Call it on a timer as well as on deliveries.
    public func mix(now: Double, emit: Emit) {
        var playing = false
        var ready = Int.max
        var queued = 0
        for lane in lanes where lane.isOpen {
            queued = max(queued, lane.count)
            if !lane.isClosing && now - lane.lastDelivery <= patience {
                playing = true
                ready = min(ready, lane.count)
            }
        }
        if !playing { ready = queued }
        if ready > 0 {
            mixFrames(ready, emit: emit)
            anchor = (now, position)
        } else if !playing {
            emitSilence(now: now, emit: emit)
        }
        for index in lanes.indices where lanes[index].isClosing && lanes[index].count == 0 {
            lanes[index] = Lane()
        }
    }

    /// When a playing lane would next count as stalled, if it delivers nothing more: the next
    /// time after `now` a `mix` may have something to do. Nil while no lane plays.
    public func nextStallCheck(after now: Double) -> Double? {
        var earliest: Double?
        for lane in lanes where lane.isOpen && !lane.isClosing && lane.lastDelivery + patience > now {
            earliest = min(earliest ?? .infinity, lane.lastDelivery + patience)
        }
        return earliest
    }

    /// Forgets every lane and restarts the clock (the server went away).
    public func reset() {
        for index in lanes.indices { lanes[index] = Lane() }
        anchor = nil
    }

    private func emitSilence(now: Double, emit: Emit) {
        guard let anchor else {
            anchor = (now, position)
            return
        }
        let due = Int64(((now - anchor.time) * Double(sampleRate)).rounded()) - (position - anchor.position)
        guard due > 0 else { return }
        // After a long stall (a suspended machine) a second of silence says enough.
        let frames = Int(min(due, Int64(sampleRate)))
        emit(nil, frames)
        position += Int64(frames)
        if frames < due { self.anchor = (now, position) }
    }

    private func write(_ samples: UnsafeBufferPointer<Float>?, frames: Int, to index: Int) {
        let base = storage + index * capacity * channelCount
        var lane = lanes[index]
        var written = 0
        while written < frames {
            let end = (lane.readIndex + lane.count) % capacity
            let piece = min(frames - written, capacity - end)
            let destination = base + end * channelCount
            if let samples {
                destination.update(from: samples.baseAddress! + written * channelCount, count: piece * channelCount)
            } else {
                destination.update(repeating: 0, count: piece * channelCount)
            }
            lane.count += piece
            written += piece
        }
        lanes[index] = lane
    }

    /// Sums `frames` frames of every open lane (what a lane lacks is silence) and emits them.
    private func mixFrames(_ frames: Int, emit: Emit) {
        var contributors = 0
        var onlyLane = -1
        for index in lanes.indices where lanes[index].isOpen && lanes[index].count > 0 {
            contributors += 1
            onlyLane = index
        }
        if contributors == 0 {
            emit(nil, frames)
        } else if contributors == 1 {
            // One app (the usual case): a copy, and silence where it ran short.
            let have = min(frames, lanes[onlyLane].count)
            add(have, from: onlyLane, single: true)
            if have < frames { (mixed + have * channelCount).update(repeating: 0, count: (frames - have) * channelCount) }
            emit(UnsafeBufferPointer(start: mixed, count: frames * channelCount), frames)
        } else {
            mixed.update(repeating: 0, count: frames * channelCount)
            for index in lanes.indices where lanes[index].isOpen && lanes[index].count > 0 {
                add(min(frames, lanes[index].count), from: index, single: false)
            }
            emit(UnsafeBufferPointer(start: mixed, count: frames * channelCount), frames)
        }
        position += Int64(frames)
    }

    private func add(_ frames: Int, from index: Int, single: Bool) {
        let base = storage + index * capacity * channelCount
        var lane = lanes[index]
        var done = 0
        while done < frames {
            let piece = min(frames - done, capacity - lane.readIndex)
            let source = base + lane.readIndex * channelCount
            let destination = mixed + done * channelCount
            let count = piece * channelCount
            if single {
                destination.update(from: source, count: count)
            } else {
                for sample in 0..<count { destination[sample] += source[sample] }
            }
            lane.readIndex = (lane.readIndex + piece) % capacity
            lane.count -= piece
            done += piece
        }
        lanes[index] = lane
    }
}
