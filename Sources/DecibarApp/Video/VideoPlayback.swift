import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// A track's picture while it plays: decoded ahead on a thread of its own into a few frames, and
/// handed to the window by the audio clock (the heard position the playhead uses). A frame shows
/// once its time is heard, never before; frames whose time passed while others showed are dropped.
/// Seeks jump at once: the frames queued are thrown away and the thread decodes from the target
/// (from its keyframe for a preview while dragging, exactly on release).
///
/// Memory is bounded whatever the file: at most `queueLength` frames, each at the size drawn.
///
/// The file is opened on the thread too (a download's header may still be arriving), so for a
/// moment, and for good when the file has no picture, `info` is nil and nothing is drawn.
final class VideoPlayback: Sendable {
    /// Frames decoded ahead.
    static let queueLength = 4

    /// What the picture is, once the thread has opened it.
    struct Info: Sendable {
        var width: Int
        var height: Int
        /// Width over height as shown.
        var aspectRatio: Double
        var isStill: Bool
        var frameRate: Double?
    }

    let path: String
    private let worker: VideoWorker

    /// Starts reading the picture of `path`, or of a download (`source`: a reader that never
    /// steers it, since the audio's decoder does).
    init(path: String, source: (any AudioByteSource)? = nil) {
        self.path = path
        worker = VideoWorker(path: path, source: source)
        let thread = Thread { [worker] in
            worker.run()
            // The decoder's frame threads freed their buffers into the allocator's arenas, where
            // they stay unless handed back: a long-running daemon would keep them after each video.
            worker.closeDecoder()
            MemoryPolicy.returnFreedMemory()
        }
        thread.name = "decibar-video"
        thread.start()
    }

    /// Nil until the picture is open, and for a file without one.
    var info: Info? { worker.shared.withLock { $0.info } }

    deinit { worker.stop() }

    /// The size frames are decoded at from now on (the picture's rectangle on screen, at most the
    /// picture's own size).
    func setDecodeSize(width: Int, height: Int) {
        worker.shared.withLock { $0.size = (max(1, width), max(1, height)) }
    }

    /// The frame to show now, if it differs from the one shown: the latest decoded frame whose time
    /// has been heard (`heard`, file seconds). Give its storage back with `recycle` once drawn.
    func picture(heard: Double) -> Picture? {
        let picked: Picture? = worker.shared.withLock { shared in
            shared.clock = heard
            let fresh = shared.queue.first.map { _ in shared.preview } ?? false
            // A seek's first frame shows at once (the audio is at the target, or paused for a drag).
            let index = fresh ? 0 : PictureSchedule.due(times: shared.queue.lazy.map(\.time), heard: heard)
            guard let index else { return nil }
            shared.preview = false
            shared.dropped += index
            for _ in 0 ..< index { shared.free.append(shared.queue.removeFirst()) }
            shared.shown += 1
            return shared.queue.removeFirst()
        }
        if picked != nil { worker.wake() }
        return picked
    }

    /// Gives a shown frame's storage back to the decoding thread.
    func recycle(_ picture: Picture) {
        worker.shared.withLock { if $0.free.count < Self.queueLength + 1 { $0.free.append(picture) } }
    }

    /// Decodes from `seconds`: exactly (the frame shown at that time), or from the keyframe at or
    /// before it (`exact` false: a quick preview while dragging). The next frame decoded shows at once.
    func seek(to seconds: Double, exact: Bool) {
        worker.shared.withLock { shared in
            shared.generation += 1
            shared.request = (seconds, exact)
            shared.free.append(contentsOf: shared.queue)
            shared.queue.removeAll()
            shared.ended = false
            shared.preview = true
            // The old position must not make the new one's frames look late before the window's
            // next frame says where the playhead is.
            shared.clock = -.infinity
        }
        worker.wake()
    }

    /// Frames shown and dropped (late) so far, for `ctl status` and the benchmarks.
    var counts: (shown: Int, dropped: Int) { worker.shared.withLock { ($0.shown, $0.dropped + $0.late) } }

    /// What went wrong with the picture, once, in one line (the audio plays on).
    func takeProblem() -> String? {
        worker.shared.withLock { shared in
            defer { shared.problem = nil }
            return shared.problem
        }
    }
}

/// What the window and the decoding thread share, under one lock.
struct VideoShared: Sendable {
    var info: VideoPlayback.Info?
    var queue: [Picture] = []
    var free: [Picture] = []
    var size = (width: 1, height: 1)
    var request: (seconds: Double, exact: Bool)?
    var generation = 0
    /// The first frame after a seek shows whatever its time.
    var preview = false
    var ended = false
    /// The heard position at the window's last frame: the thread skips converting frames already late.
    var clock = -Double.infinity
    var shown = 0
    var dropped = 0
    /// Frames the thread did not convert because they were late.
    var late = 0
    var problem: String?
    var stopped = false
}

/// The decoding thread's side of a `VideoPlayback`.
// Unchecked: the decoder (not Sendable) is used by the decoding thread only once `init` hands it
// over; everything shared with other threads is behind `shared`'s mutex.
private final class VideoWorker: @unchecked Sendable {
    let shared = Mutex(VideoShared())
    private let path: String
    private let source: (any AudioByteSource)?
    private var decoder: VideoFileDecoder!
    private let semaphore = DispatchSemaphore(value: 0)
    private var reportedFailure = false

    init(path: String, source: (any AudioByteSource)?) {
        self.path = path
        self.source = source
    }

    /// Opens the file; says why not in one line, unless it simply has no picture.
    private func open() -> Bool {
        do throws(AudioFileError) {
            let opened = if let source { try VideoFileDecoder(source: source, name: path) } else { try VideoFileDecoder(path: path) }
            decoder = opened
            let info = VideoPlayback.Info(width: opened.width, height: opened.height, aspectRatio: opened.aspectRatio,
                                          isStill: opened.isStill, frameRate: opened.frameRate)
            shared.withLock { $0.info = info }
            return true
        } catch where error.reason != VideoFileDecoder.noPicture {
            report("\(error.description); the picture is not shown, the audio plays")
        } catch {}
        shared.withLock { $0.ended = true }
        return false
    }

    func stop() {
        shared.withLock { $0.stopped = true }
        semaphore.signal()
    }

    func wake() { semaphore.signal() }

    /// Frees the decoder once `run` has returned (only that thread uses it).
    func closeDecoder() { decoder = nil }

    func run() {
        guard open() else { return }
        var lastEnd = 0.0
        while true {
            let (stopped, request, generation, isFull, ended, size, clock, spare) = shared.withLock { shared in
                defer { shared.request = nil }
                let full = shared.queue.count >= VideoPlayback.queueLength
                let spare = full || shared.ended && shared.request == nil ? nil : shared.free.popLast()
                return (shared.stopped, shared.request, shared.generation, full, shared.ended, shared.size, shared.clock, spare)
            }
            if stopped { return }
            if let request {
                do {
                    try decoder.seek(to: request.seconds, exact: request.exact)
                } catch {
                    report(error.description)
                }
            } else if isFull || ended {
                _ = semaphore.wait(timeout: .now() + .milliseconds(100))
                continue
            }
            var picture = spare ?? Picture()
            let lateBefore = decoder.lateFrames
            let more: Bool
            do {
                more = try decoder.read(into: &picture, width: size.width, height: size.height,
                                        droppingBefore: request == nil ? clock : nil)
            } catch {
                report(error.description)
                more = false
            }
            if more { lastEnd = picture.end }
            let late = decoder.lateFrames - lateBefore
            shared.withLock { shared in
                shared.late += late
                guard shared.generation == generation else {
                    shared.free.append(picture)
                    return
                }
                if more { shared.queue.append(picture) } else {
                    shared.ended = true
                    shared.free.append(picture)
                }
            }
            if !more, request == nil, let stated = decoder.statedDuration, lastEnd < stated - 0.5, !reportedFailure {
                report("the picture stops at \(TimeLabel.text(seconds: lastEnd)) of \(TimeLabel.text(seconds: stated)): the file is damaged or cut short")
            }
        }
    }

    private func report(_ line: String) {
        reportedFailure = true
        let name = path.escapingControlCharacters
        let text = line.hasPrefix(name) ? line : "\(name): \(line)"
        shared.withLock { $0.problem = text }
    }
}
