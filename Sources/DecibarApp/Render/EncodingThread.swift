import DecibarAudio
import Foundation
import Synchronization

/// An MP4 encoded on a thread of its own, so that on two cores the render draws frame k+1 while
/// x264 encodes frame k. Frames wait in a few NV12 slots made once and reused (the render blocks
/// when all are full, which bounds memory whatever the file's length); audio waits in small blocks.
final class EncodingThread {
    private let shared: Shared
    private var ended = false

    /// Starts the thread with `encoder`, whose file is open and header written.
    init(encoder: VideoFileEncoder, frameBytes: Int, slots: Int = 3) {
        shared = Shared(slots: FrameSlots(count: slots, bytes: frameBytes))
        let shared = shared
        let handed = EncoderHandOff(encoder: encoder)
        let thread = Thread { shared.run(handed) }
        thread.name = "decibar:encode"
        thread.start()
    }

    /// Why encoding stopped (a full disk, an encoder error), if it did.
    var failure: String? { shared.failure.withLock { $0 } }

    /// Fills the next free slot with `fill` (NV12, top row first) and queues it; waits while
    /// every slot is taken.
    func writeFrame(_ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        shared.free.wait()
        let slot = shared.nextSlot.withLock { next in
            defer { next = (next + 1) % shared.slots.count }
            return next
        }
        do {
            try fill(shared.slots.buffer(slot))
        } catch {
            shared.free.signal()
            throw error
        }
        shared.push(.frame(slot))
    }

    /// Queues decoded audio (interleaved, at the rate the encoder was made for).
    func writeAudio(_ samples: UnsafeBufferPointer<Float>) {
        shared.push(.audio(Array(samples)))
    }

    /// Waits for every queued frame and the end of the file; nil, or why it failed.
    func finish() -> String? {
        guard !ended else { return failure }
        ended = true
        shared.push(.finish)
        shared.done.wait()
        return failure
    }

    /// Stops without finishing the file (closed, not completed) and waits for the thread.
    func abandon() {
        guard !ended else { return }
        ended = true
        shared.push(.abandon)
        shared.done.wait()
    }

    deinit { abandon() }
}

private enum EncodingJob {
    case frame(Int)
    case audio([Float])
    case finish
    case abandon
}

/// The NV12 frames between the two threads.
// Unchecked: a slot is written by the render thread only while free, and read by the encoding thread
// only while queued; the semaphores in `Shared` order each hand-off.
private final class FrameSlots: @unchecked Sendable {
    private let memory: UnsafeMutableRawBufferPointer
    let count: Int
    let bytes: Int

    init(count: Int, bytes: Int) {
        self.count = count
        self.bytes = bytes
        memory = .allocate(byteCount: count * bytes, alignment: 64)
        memory.initializeMemory(as: UInt8.self, repeating: 0)
    }

    func buffer(_ slot: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: memory[slot * bytes ..< (slot + 1) * bytes])
    }

    deinit { memory.deallocate() }
}

/// The encoder on its way to the thread.
// Unchecked: created by the render thread, then used only by the encoding thread.
private final class EncoderHandOff: @unchecked Sendable {
    var encoder: VideoFileEncoder?
    init(encoder: VideoFileEncoder) { self.encoder = encoder }
}

private final class Shared: Sendable {
    let slots: FrameSlots
    let queue = Mutex<[EncodingJob]>([])
    let nextSlot = Mutex(0)
    let failure = Mutex<String?>(nil)
    let queued = DispatchSemaphore(value: 0)
    let free: DispatchSemaphore
    let done = DispatchSemaphore(value: 0)

    init(slots: FrameSlots) {
        self.slots = slots
        free = DispatchSemaphore(value: slots.count)
    }

    func push(_ job: EncodingJob) {
        queue.withLock { $0.append(job) }
        queued.signal()
    }

    /// The encoding thread: jobs in order until finish or abandon. After a failure the rest are
    /// passed over (their slots freed), so the render thread never waits for nothing.
    func run(_ handed: EncoderHandOff) {
        while true {
            queued.wait()
            let job = queue.withLock { $0.removeFirst() }
            let failed = failure.withLock { $0 != nil }
            do throws(VideoEncoderError) {
                switch job {
                case .frame(let slot):
                    defer {
                        // Through the lock the render thread takes before writing the slot again,
                        // so the race detector sees this read come first.
                        nextSlot.withLock { _ in }
                        free.signal()
                    }
                    if !failed { try handed.encoder?.writeVideo(nv12: UnsafeRawBufferPointer(slots.buffer(slot))) }
                case .audio(let samples):
                    if !failed { try samples.withUnsafeBufferPointer { samples throws(VideoEncoderError) in try handed.encoder?.writeAudio(samples) } }
                case .finish:
                    if !failed { try handed.encoder?.finish() }
                    handed.encoder = nil
                    done.signal()
                    return
                case .abandon:
                    handed.encoder = nil
                    done.signal()
                    return
                }
            } catch {
                failure.withLock { if $0 == nil { $0 = error.reason } }
                if case .finish = job {
                    handed.encoder = nil
                    done.signal()
                    return
                }
            }
        }
    }
}
