import DecibarCore
import Dispatch
import Foundation
import Synchronization

/// Plays a file: a thread of its own decodes ahead into a ring of a second of audio, and the sound
/// server's write callback only copies out of the ring. A slow decode (a cold disk, a network
/// stream) therefore stalls nothing but the decoding thread, and the ring's second covers it.
///
/// A seek returns at once: the decoding thread moves the decoder and begins a new generation of the
/// ring (`PlaybackRing`), and the reader skips what came before, so audio after a seek starts
/// exactly at its target. Files that end or break while playing end the stream; the problem is
/// kept in `failure`.
public final class FilePlaybackSource: PlaybackSource, Sendable {
    public let path: String
    public let sampleRate: Int
    public let channelCount: Int
    public let speakerPositions: [SpeakerPosition]
    public let estimatedFrameCount: Int64?
    public let tags: TrackTags

    private let worker: DecodeWorker

    /// Seconds of audio decoded ahead.
    public static let aheadSeconds = 1.0

    /// The highest rate played (PulseAudio's limit; PipeWire's is the same order).
    public static let maximumSampleRate = 384_000

    /// Why the file at `path` cannot even be read (missing, a folder, empty, no permission), in
    /// the words opening it would use; nil when it can be. Cheap: nothing is decoded or loaded.
    public static func readProblem(atPath path: String) -> AudioFileError? {
        do throws(AudioFileError) {
            _ = try AudioFileInput(path: path)
            return nil
        } catch {
            return error
        }
    }

    /// Opens the file and decodes its first chunk, so that a file with a header but no playable
    /// audio fails here, before anything is said to be playing.
    public convenience init(path: String) throws(AudioFileError) {
        try self.init(decoder: try AudioFileDecoder(path: path))
    }

    /// Plays from a decoder already open (a download's); the source owns it from here on.
    public init(decoder: AudioFileDecoder) throws(AudioFileError) {
        // The ring holds a second: a header's absurd rate would size it (2^31 Hz: 16 GiB). No sound
        // server plays above 384 kHz.
        guard decoder.sampleRate <= Self.maximumSampleRate else {
            throw AudioFileError(path: decoder.path, reason: "cannot play \(decoder.sampleRate) Hz audio (at most \(Self.maximumSampleRate) Hz)")
        }
        self.path = decoder.path
        sampleRate = decoder.sampleRate
        channelCount = decoder.channelCount
        speakerPositions = decoder.speakerPositions
        estimatedFrameCount = decoder.estimatedFrameCount
        tags = decoder.tags
        let ring = PlaybackRing(capacity: max(4096, Int(Self.aheadSeconds * Double(decoder.sampleRate))),
                                channelCount: decoder.channelCount)
        worker = try DecodeWorker(decoder: decoder, ring: ring)
        let thread = Thread { [worker] in worker.run() }
        thread.name = "decibar-decode"
        thread.start()
    }

    deinit { worker.stop() }

    /// The last decoding problem, if any (the file then ends early).
    public var failure: AudioFileError? { worker.failure }

    /// For tests: the decoding thread sleeps this long before its next chunk, as a slow disk would make it.
    public func stallDecoding(seconds: Double) { worker.stall(seconds: seconds) }

    /// Copies what is decoded; `.waiting` while a seek's first audio is still being decoded (not
    /// an underrun, just not there yet). Only copies: real-time safe.
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> PlaybackRender {
        let read = worker.ring.read(into: buffer, frames: frames)
        // Room was made, or the decoding thread is needed: a wake-up, never a wait.
        worker.wake()
        switch read {
        case .audio(let count): return .audio(frames: count)
        case .last(let count): return .last(frames: count)
        case .ended: return .ended
        case .waiting: return .waiting
        }
    }

    public func seek(toFrame frame: Int64) {
        worker.requestSeek(to: frame)
    }

    /// Plays `loop` over and over from the next time the audio reaches its end (B) from before it;
    /// nil plays on. Seek to its start (A) after setting one: audio decoded ahead past B is not undone.
    public func setLoop(_ loop: ABLoop?) {
        worker.loop.withLock { $0 = loop }
        worker.wake()
    }

    public func fileFrame(playedFrame: Double) -> Double {
        worker.fold.withLock { fold in
            fold.loop?.fileFrame(playedFrame: playedFrame, origin: fold.origin, wraps: fold.wraps) ?? playedFrame
        }
    }

    /// Seconds of audio decoded and not yet read by the sound server; 0 while a seek's first audio
    /// is still being decoded. A streamed track waits on this before it starts or resumes.
    public var bufferedSeconds: Double { Double(worker.ring.bufferedFrames) / Double(sampleRate) }

    /// Everything up to the end of the file (from the last seek) is decoded: waiting gains nothing.
    public var isDecodedToEnd: Bool { worker.ring.isWrittenToEnd }

    /// The most audio decoded ahead, in seconds (the ring's size).
    public var capacitySeconds: Double { Double(worker.ring.capacity) / Double(sampleRate) }

    public var whenAudioArrives: (@Sendable () -> Void)? {
        get { worker.onAudio.withLock { $0 } }
        set { worker.onAudio.withLock { $0 = newValue } }
    }
}

/// The decoding thread's side of a `FilePlaybackSource`.
// Unchecked: the decoder (not Sendable) is used by the decoding thread only, once `init` hands it
// over; everything shared with other threads is an atomic or behind a mutex.
private final class DecodeWorker: @unchecked Sendable {
    let ring: PlaybackRing
    private let decoder: AudioFileDecoder
    private let channelCount: Int
    /// Decoded samples that did not fit in the ring yet (reused).
    private var pending: [Float] = []
    private var pendingStart = 0
    /// The decoder has nothing more for this generation (the end, or an error).
    private var decoderEnded = false
    /// The file frame the decoder's next audio starts at.
    private var decodedFrame: Int64 = 0

    private let seekTarget = Atomic<Int64>(0)
    let onAudio = Mutex<(@Sendable () -> Void)?>(nil)
    /// The A-B loop asked for; the decoding thread jumps from its end back to its start.
    let loop = Mutex<ABLoop?>(nil)
    /// How the audio of the latest seek folds back into the file: the loop it jumped in, from
    /// where, how often. Reset by the seek itself, so a read after it never folds by an older one.
    let fold = Mutex(Fold(generation: 0, origin: 0))

    struct Fold {
        var generation: Int
        var origin: Int64
        var loop: ABLoop?
        var wraps = 0
    }
    private let failureBox = Mutex<AudioFileError?>(nil)
    private let stopped = Atomic<Bool>(false)
    private let stallNanoseconds = Atomic<Int>(0)
    private let semaphore = DispatchSemaphore(value: 0)

    init(decoder: AudioFileDecoder, ring: PlaybackRing) throws(AudioFileError) {
        self.decoder = decoder
        self.ring = ring
        channelCount = decoder.channelCount
        // The first chunk now: a file that cannot give any audio fails to open.
        let more = try decoder.read { [self] samples in pending.append(contentsOf: samples) }
        decodedFrame = Int64(pending.count / max(1, channelCount))
        flushPending()
        decoderEnded = !more
    }

    var failure: AudioFileError? { failureBox.withLock { $0 } }

    func stop() {
        stopped.store(true, ordering: .releasing)
        semaphore.signal()
    }

    /// Wakes the thread if it waits for room or for work. Real-time safe: no lock, no allocation.
    func wake() { semaphore.signal() }

    func stall(seconds: Double) { stallNanoseconds.store(Int(saturating: seconds * 1e9), ordering: .releasing) }

    func requestSeek(to frame: Int64) {
        seekTarget.store(max(0, frame), ordering: .relaxed)
        let generation = ring.requestGeneration()
        fold.withLock { $0 = Fold(generation: generation, origin: max(0, frame)) }
        semaphore.signal()
    }

    /// The thread: decode while there is room, carry out seeks, sleep otherwise.
    func run() {
        while !stopped.load(ordering: .acquiring) {
            if let wanted = ring.generationToBegin {
                seek(to: seekTarget.load(ordering: .relaxed), generation: wanted)
                continue
            }
            // A reader that asked just as the first audio (or the end) arrived is told now.
            if ring.isPrimed { notifyWaitingReader() }
            let stall = stallNanoseconds.exchange(0, ordering: .acquiringAndReleasing)
            if stall > 0 { usleep(useconds_t(stall / 1000)) }
            if decoderEnded && pending.isEmpty {
                // All of it is in the ring: say so once, then wait for a seek or the end.
                if !ring.isFinished { finish() }
                _ = semaphore.wait(timeout: .now() + .milliseconds(200))
                continue
            }
            if !pending.isEmpty {
                flushPending()
                if !pending.isEmpty {
                    // The ring is full: wait until the reader makes room.
                    _ = semaphore.wait(timeout: .now() + .milliseconds(50))
                    continue
                }
            }
            decodeChunk()
        }
    }

    private func seek(to frame: Int64, generation: Int) {
        pending.removeAll(keepingCapacity: true)
        pendingStart = 0
        do {
            try decoder.seek(toFrame: frame)
            decoderEnded = false
            decodedFrame = max(0, frame)
        } catch {
            failureBox.withLock { $0 = error }
            decoderEnded = true
        }
        // New audio starts at the producer's position now; the reader skips everything before it.
        ring.begin(generation)
        // A reader that waits for the seek is told now: its next read drops the stale audio, which
        // makes room for the new (with a full ring, nothing could be written before that).
        notifyWaitingReader()
    }

    private func decodeChunk() {
        let first = decodedFrame
        let before = pending.count
        var failed = false
        do {
            let more = try decoder.read { samples in pending.append(contentsOf: samples) }
            if !more { decoderEnded = true }
        } catch {
            failureBox.withLock { $0 = error }
            decoderEnded = true
            failed = true
        }
        decodedFrame += Int64((pending.count - before) / channelCount)
        // Audio that started before B jumps back to A at B exactly (or at the file's end, if B lies beyond it).
        if !failed, let loop = loop.withLock({ $0 }), first < loop.end {
            if decodedFrame >= loop.end {
                pending.removeLast(Int(decodedFrame - loop.end) * channelCount)
                decodedFrame = loop.end
                jumpBack(in: loop)
            } else if decoderEnded, let shortened = ABLoop(start: loop.start, end: decodedFrame) {
                jumpBack(in: shortened)
            }
        }
        flushPending()
    }

    /// Moves the decoder from the loop's end to its start; the audio goes on as one stream.
    private func jumpBack(in loop: ABLoop) {
        do {
            try decoder.seek(toFrame: loop.start)
            decoderEnded = false
            decodedFrame = loop.start
            fold.withLock { fold in
                guard fold.generation == ring.generation else { return }
                fold.loop = loop
                fold.wraps += 1
            }
        } catch {
            failureBox.withLock { $0 = error }
            decoderEnded = true
        }
    }

    /// Everything of this generation is in the ring: the reader ends once it has read it all.
    private func finish() {
        ring.finish()
        notifyWaitingReader()
    }

    /// Moves what fits of the pending samples into the ring; tells a waiting reader.
    private func flushPending() {
        guard pendingStart < pending.count else {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            return
        }
        let frames = pending.withUnsafeBufferPointer { all in
            ring.write(UnsafeBufferPointer(rebasing: all[pendingStart...]))
        }
        pendingStart += frames * channelCount
        if pendingStart >= pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
        }
        if frames > 0 {
            ring.markPrimed()
            notifyWaitingReader()
        }
    }

    /// Calls `onAudio` if the reader said it was waiting. The call is made holding `onAudio`'s lock,
    /// so whoever clears it (a player that stops) knows no call is still under way afterwards.
    private func notifyWaitingReader() {
        guard ring.takeWaitingReader() else { return }
        onAudio.withLock { $0?() }
    }
}
