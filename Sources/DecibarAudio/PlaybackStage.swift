import DecibarCore
import Dispatch
import Foundation
import Synchronization

/// Raises the calling thread to real-time scheduling where the system allows it, and quietly does
/// nothing where it does not. The application provides it (the system calls and the session bus
/// are its business); the audio module calls it on each thread that keeps the sound going.
public protocol ThreadPriority: Sendable {
    /// Whether the calling thread now runs real-time.
    @discardableResult
    func raiseCurrentThread() -> Bool
}

/// The player's audio between the decoder and the sound server. On a thread of its own
/// (`decibar-stretch`) it takes the decoded file audio, stretches it with Rubber Band when the rate
/// or pitch is not normal, and keeps a short lead of what plays next in a ring, marked with the
/// file frame each part plays. The sound server's write callback only copies out of that ring, so
/// a slow or busy moment of the stretcher costs nothing as long as the lead lasts.
///
/// The lead is short, because a rate or pitch change is heard only after it (and the server's own
/// queue): `leadSeconds`. A new track or a seek first fills `primeSeconds`, the server's first
/// request. Seeks are generations of the ring (`PlaybackRing`): they return at once.
// Unchecked: the thread's own state is touched by that thread alone (after `init`), the reader's
// by the sound server's thread alone (under libpulse's lock); what they share is in atomics, the
// rings and mutexes.
final class PlaybackStage: @unchecked Sendable {
    let sampleRate: Int
    let channelCount: Int
    private let source: PlaybackSource
    private let ring: PlaybackRing
    private let marks: FrameMarks
    private let semaphore = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    private let seekTarget = Atomic<Int64>(0)
    /// The thread's last try found the decoder behind (it had less than asked for).
    private let sourceBehind = Atomic<Bool>(false)
    /// The rate and pitch asked for (bit patterns of Doubles), taken by the thread's next chunk.
    private let requestedRate = Atomic<UInt64>(1.0.bitPattern)
    private let requestedPitchScale = Atomic<UInt64>(1.0.bitPattern)
    /// The stretcher, made ahead of need (making one allocates and takes a while: asked for on a
    /// busy machine, a change waited tens of milliseconds for it), until the thread takes it; or
    /// why there is none (Rubber Band cannot take this audio).
    private let madeStretch = Mutex<(stretch: PlaybackStretch?, isImpossible: Bool)>((nil, false))
    /// Called (on the stage's thread) when audio is there after a read was told to wait.
    private let onAudio = Mutex<(@Sendable () -> Void)?>(nil)
    private let priority: (any ThreadPriority)?

    // The thread's own.
    private var stretch: PlaybackStretch?
    private var isStretching = false
    /// The audio last played at normal speed, which primes the stretcher when the rate changes.
    private var history: SampleHistory
    /// The file frame of the next frame the stage makes.
    private var fileFrame = 0.0
    private let scratch: UnsafeMutablePointer<Float>
    /// The lead kept: `leadSeconds`, or `normalLeadSeconds` once the thread turned out not to be
    /// real-time (set by the thread as it starts, before it makes anything).
    private var leadFrames: Int
    private let primeFrames: Int

    // The reader's own.
    /// The file frame at the end of what the last read copied, and the rate it went at.
    private(set) var readFileFrame = 0.0
    private(set) var readRate = 1.0

    /// What the thread keeps ready beyond what the server has: more than one of its requests
    /// (a quarter of `PulsePlayer.targetLatency`), short enough that a rate change is heard soon.
    /// A request it cannot fill at once is written as the rest comes, while the server's queue plays.
    static let leadSeconds = 0.02
    /// The lead of a thread that could not be made real-time: a thread at normal priority beside
    /// six busy loops waited tens of milliseconds for a core (with 20 ms, a stretched track under
    /// such a load broke up hundreds of times a minute). A change of rate is heard later.
    static let normalLeadSeconds = 0.15
    /// What a start or a seek fills before the reader may begin: the server's first request is
    /// its whole target (with less, the first writes of a stretched start fell short and the
    /// playhead's first notes were 50 ms off).
    static let primeSeconds = 0.08
    /// The most frames made in one go.
    static let chunkFrames = 1024

    /// False when the rate and pitch given to `init` could not be set up (it plays at normal speed).
    private(set) var canStretch = true

    /// - Parameters:
    ///   - rate, pitchScale: from the first frame (the thread starts making audio at once).
    init(source: PlaybackSource, channelCount: Int, rate: Double, pitchScale: Double, priority: (any ThreadPriority)?) {
        self.source = source
        self.priority = priority
        sampleRate = source.sampleRate
        self.channelCount = channelCount
        leadFrames = max(256, Int(Self.leadSeconds * Double(sampleRate)))
        primeFrames = max(leadFrames, Int(Self.primeSeconds * Double(sampleRate)))
        // Room for the prime or the longer lead, and a chunk more. A mark is needed only where the
        // rate changes or the audio jumps (seeks): a few hundred are more than the ring ever holds.
        let capacity = max(primeFrames, Int(Self.normalLeadSeconds * Double(sampleRate))) + 2 * Self.chunkFrames
        ring = PlaybackRing(capacity: capacity, channelCount: channelCount)
        marks = FrameMarks(capacity: 256)
        history = SampleHistory(capacity: PlaybackStretch.historyCapacity, channelCount: channelCount)
        scratch = .allocate(capacity: Self.chunkFrames * channelCount)
        scratch.initialize(repeating: 0, count: Self.chunkFrames * channelCount)
        source.whenAudioArrives = { [semaphore] in semaphore.signal() }
        if rate != 1 || pitchScale != 1 { canStretch = setTimeAndPitch(rate: rate, pitchScale: pitchScale) }
        let thread = Thread { [self] in run() }
        thread.name = "decibar-stretch"
        thread.start()
    }

    deinit { scratch.deallocate() }

    /// Ends the thread (it lets go of the source) and stops calling back.
    func stop() {
        onAudio.withLock { $0 = nil }
        source.whenAudioArrives = nil
        stopped.store(true, ordering: .releasing)
        semaphore.signal()
    }

    /// Called on the stage's thread once audio is there after `render` said `.waiting`.
    var whenAudioArrives: (@Sendable () -> Void)? {
        get { onAudio.withLock { $0 } }
        set { onAudio.withLock { $0 = newValue } }
    }

    // MARK: The reader (the sound server's thread)

    /// Copies up to `frames` frames; `readFileFrame` and `readRate` then tell where they end.
    /// Real-time safe: copies and atomics only.
    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> PlaybackRender {
        let read = ring.read(into: buffer, frames: frames)
        // Room was made (or the thread is needed): a wake-up, never a wait.
        semaphore.signal()
        if read != .waiting { (readFileFrame, readRate) = marks.fileFrame(at: ring.readPosition) }
        switch read {
        case .audio(let count): return .audio(frames: count)
        case .last(let count): return .last(frames: count)
        case .ended: return .ended
        case .waiting: return .waiting
        }
    }

    var speakerPositions: [SpeakerPosition] { source.speakerPositions }

    /// The decoder had less than the stage asked for on its last try: silence now is an underrun
    /// (decoding fell behind), not a machine too busy to hand over what was ready.
    var isSourceBehind: Bool { sourceBehind.load(ordering: .relaxed) }

    /// The file frame of `playedFrame` (the source's, as an A-B loop folds it).
    func fileFrame(playedFrame: Double) -> Double { source.fileFrame(playedFrame: playedFrame) }

    // MARK: Control (any thread)

    /// Moves to `frame`; returns at once, and what is read next starts exactly there.
    func seek(toFrame frame: Int64) {
        // The source first: the stage's new generation then reads only the source's new audio.
        source.seek(toFrame: frame)
        seekTarget.store(max(0, frame), ordering: .relaxed)
        ring.requestGeneration()
        semaphore.signal()
    }

    /// Sets the speed and pitch, taken by the next chunk the thread makes (heard after the lead
    /// and the server's queue). False when this audio cannot be stretched.
    func setTimeAndPitch(rate: Double, pitchScale: Double) -> Bool {
        if rate != 1 || pitchScale != 1 {
            // Usually made already (`makeStretchAhead`); if not, here rather than on the stage's thread.
            guard makeStretch() else { return false }
        }
        requestedRate.store(rate.bitPattern, ordering: .relaxed)
        requestedPitchScale.store(pitchScale.bitPattern, ordering: .relaxed)
        semaphore.signal()
        return true
    }

    // MARK: The thread

    private func run() {
        if priority?.raiseCurrentThread() != true {
            leadFrames = max(leadFrames, Int(Self.normalLeadSeconds * Double(sampleRate)))
        }
        while !stopped.load(ordering: .acquiring) {
            if let generation = ring.generationToBegin {
                begin(generation)
                continue
            }
            takeRateAndPitch()
            if ring.isFinished {
                // All of it is written: wait for a seek or the end.
                _ = semaphore.wait(timeout: .now() + .milliseconds(200))
                continue
            }
            let target = ring.isPrimed ? leadFrames : primeFrames
            let room = min(target - ring.framesAhead, ring.samples.freeFrames)
            guard room > 0, marks.freeCount > 0 else {
                prime()
                // Each read wakes the thread; the timeout only bounds a wait nobody ends.
                _ = semaphore.wait(timeout: .now() + .milliseconds(100))
                continue
            }
            let made = make(frames: min(room, Self.chunkFrames))
            sourceBehind.store(made == .short || made == .waiting, ordering: .relaxed)
            switch made {
            case .made, .short:
                if ring.isPrimed {
                    // A reader that fell short is given the rest now.
                    callBackWaitingReader()
                } else if ring.framesAhead >= target {
                    prime()
                }
                // The decoder is behind (a seek's first chunk, a slow disk or network): more soon.
                if made == .short { _ = semaphore.wait(timeout: .now() + .milliseconds(2)) }
            case .waiting:
                // The source's first audio after its seek is not decoded yet; it wakes us.
                _ = semaphore.wait(timeout: .now() + .milliseconds(50))
            case .ended:
                ring.finish()
                callBackWaitingReader()
            }
        }
    }

    private enum Made { case made, short, waiting, ended }

    /// Makes up to `frames` frames into the ring, marked with the file frame they reach.
    private func make(frames: Int) -> Made {
        let stretching = isStretching ? stretch : nil
        let before = fileFrame
        let rate = stretching?.rate ?? 1
        // A stretch of frames is marked at one rate: it ends where the stretcher's count changes.
        var frames = frames
        if let limit = stretching?.framesAtThisRate, limit > 0 { frames = min(frames, limit) }
        let rendered = stretching?.render(from: source, into: scratch, frames: frames)
            ?? source.render(into: scratch, frames: frames)
        let count: Int
        let isLast: Bool
        switch rendered {
        case .waiting: return .waiting
        case .ended: return .ended
        case .audio(let made): count = made; isLast = false
        case .last(let made): count = made; isLast = true
        }
        if count > 0 {
            let samples = UnsafeBufferPointer(start: scratch, count: count * channelCount)
            if let stretching {
                fileFrame = stretching.outputFileFrame
            } else {
                fileFrame += Double(count)
                history.append(interleaved: samples, channelCount: channelCount)
            }
            // The mark goes first: a reader that sees the frames also sees their file frames. (There
            // is room: the loop makes nothing while the marks are full.)
            marks.follow(position: ring.samples.writePosition, fileFrame: before, rate: rate)
            _ = ring.write(samples)
        }
        if isLast { return .ended }
        return count < frames ? .short : .made
    }

    /// The reader may start on this generation (once): tells it if it waits.
    private func prime() {
        guard !ring.isPrimed else { return }
        ring.markPrimed()
        callBackWaitingReader()
        // With the lead full the thread has time to spare: a change of rate or pitch then finds
        // the stretcher ready.
        makeStretch()
    }

    private func callBackWaitingReader() {
        // Made holding `onAudio`'s lock, so whoever clears it knows no call is still under way.
        if ring.takeWaitingReader() { onAudio.withLock { $0?() } }
    }

    /// Carries out a seek: what was made before it is dropped, the stretcher starts again there.
    private func begin(_ generation: Int) {
        let target = seekTarget.load(ordering: .relaxed)
        history.reset()
        takeStretch()
        if let stretch, isStretching {
            let (rate, pitchScale) = requested
            if rate == 1 && pitchScale == 1 {
                isStretching = false
            } else {
                // Primed with silence (the history was just cleared): the target is the first frame out.
                stretch.start(atFileFrame: target, rate: rate, pitchScale: pitchScale, history: history)
            }
        }
        fileFrame = Double(target)
        ring.begin(generation)
    }

    private var requested: (rate: Double, pitchScale: Double) {
        (Double(bitPattern: requestedRate.load(ordering: .relaxed)), Double(bitPattern: requestedPitchScale.load(ordering: .relaxed)))
    }

    private func takeStretch() {
        if stretch == nil { stretch = madeStretch.withLock { $0.stretch } }
    }

    /// Makes the stretcher if there is none yet; false when this audio cannot be stretched.
    @discardableResult
    private func makeStretch() -> Bool {
        let state = madeStretch.withLock { $0 }
        if state.stretch != nil { return true }
        if state.isImpossible { return false }
        let made = PlaybackStretch(sampleRate: sampleRate, channelCount: channelCount)
        return madeStretch.withLock { state in
            if state.stretch == nil { state.stretch = made }
            state.isImpossible = state.stretch == nil
            return state.stretch != nil
        }
    }

    /// Takes a new rate or pitch for the next chunk: leaving normal speed starts the stretcher,
    /// primed with what was just made, so the join is seamless.
    private func takeRateAndPitch() {
        let (rate, pitchScale) = requested
        if isStretching {
            stretch?.apply(rate: rate, pitchScale: pitchScale)
        } else if rate != 1 || pitchScale != 1 {
            takeStretch()
            guard let stretch else { return }
            stretch.start(atFileFrame: Int64(fileFrame.rounded()), rate: rate, pitchScale: pitchScale, history: history)
            isStretching = true
        }
    }
}
