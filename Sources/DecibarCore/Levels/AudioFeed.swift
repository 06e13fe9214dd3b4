import Synchronization

/// Where audio waits between its source and the display: buffers arrive stamped with when their
/// last sample is (or will be) heard, and each display frame releases those whose first sample is
/// heard by then into the analysis it reads from: levels since the last frame, the last 300 ms
/// RMS, and the newest samples for a spectrum.
///
/// A player stamps what it writes ahead of time; a live tap's buffers are stamped on capture and
/// shown `delay` seconds later (the sink's latency plus any A/V offset). At most `capacity`
/// buffers wait. The lock is held for one buffer's hand-over or one frame's arithmetic.
public final class AudioFeed: Sendable {
    private struct State {
        var waiting: [AudioBuffer] = []
        var delay = 0.0
        var sampleRate = 0
        var channelCount = 0
        var processor = LevelProcessor(channelCount: 2)
        var history: SampleHistory
        var rms = RMSWindow(channelCount: 2)
        /// Measures loudness from released audio once a meter asks for it.
        var loudness: (any LoudnessAnalyzer)?
        /// Beats found ahead of being heard, oldest first (their stamps on the buffers' clock),
        /// and the pulse of those heard.
        var beats: [(time: Double, bpm: Double, confidence: Double)] = []
        var pulse = BeatPulse()
        /// Bursts in the waiting audio, when the feed marks them: where each one's buffer starts
        /// and where it starts, on the buffers' clock, oldest first.
        var marker: OnsetMarker?
        var onsets: [(start: Double, time: Double)] = []
        /// When the last burst released was heard.
        var lastBurst: Double?
    }

    /// Beats that may wait to be heard; more are dropped oldest first (a window that stopped reading).
    static let beatCapacity = 64

    private let state: Mutex<State>
    public let capacity: Int
    /// Samples kept per channel for spectra: enough for the longest FFT.
    /// Rounding allowed when comparing a buffer's start with a moment, in seconds.
    static let edgeSlack = 1e-9

    public static let historyLength = SpectrumBands.maximumFFTLength

    /// - Parameter marksOnsets: find bursts in the audio as it is added, for `nextEvent`.
    public init(capacity: Int = 1024, marksOnsets: Bool = false) {
        self.capacity = capacity
        var initial = State(history: SampleHistory(capacity: Self.historyLength, channelCount: 2))
        initial.beats.reserveCapacity(Self.beatCapacity)
        if marksOnsets {
            initial.marker = OnsetMarker()
            initial.onsets.reserveCapacity(Self.beatCapacity)
        }
        state = Mutex(initial)
    }

    /// A beat whose sound starts at `time` on the buffers' clock (heard `delay` later), found
    /// before it is heard or soon after; frames released from then on see it in `beatPulse`.
    public func addBeat(at time: Double, bpm: Double, confidence: Double) {
        state.withLock { state in
            if state.beats.count >= Self.beatCapacity { state.beats.removeFirst() }
            state.beats.append((time, bpm, confidence))
        }
    }

    /// The beat as of the last `release`: the last beat heard by then, and the tempo.
    public var beatPulse: BeatPulse { state.withLock { $0.pulse } }

    /// When the last burst released so far is heard (when the feed marks them; nil before any).
    public var lastBurst: Double? { state.withLock { $0.lastBurst } }

    /// Seconds added to every buffer's time before it is shown.
    public var delay: Double {
        get { state.withLock { $0.delay } }
        set { state.withLock { $0.delay = Swift.max(0, newValue) } }
    }

    /// Queues `buffer` until it is heard; true when the feed marks onsets and this one holds a burst.
    @discardableResult
    public func add(_ buffer: AudioBuffer) -> Bool {
        state.withLock { state in
            if state.waiting.count >= capacity { state.waiting.removeFirst(state.waiting.count - capacity + 1) }
            state.waiting.append(buffer)
            guard let offset = state.marker?.mark(buffer) else { return false }
            if state.onsets.count >= Self.beatCapacity { state.onsets.removeFirst() }
            let start = buffer.captureTime - buffer.duration
            state.onsets.append((start, start + offset))
            return true
        }
    }

    /// The next thing in the waiting audio that should be seen when it is heard, on the heard
    /// clock: a burst (when the feed marks them) or a beat found ahead. `start` is when its buffer
    /// starts being heard (releasing up to there still leaves it waiting); `time` when it is heard.
    public var nextEvent: (start: Double, time: Double)? {
        state.withLock { state in
            var next = state.onsets.first
            if let beat = state.beats.first, next.map({ beat.time < $0.time }) ?? true { next = (beat.time, beat.time) }
            return next.map { ($0.start + state.delay, $0.time + state.delay) }
        }
    }

    /// Processes every buffer heard by `now` and returns the levels of all of them since the last
    /// call (frameCount 0 when none were due).
    ///
    /// `observe` sees each released buffer with the time its last sample is heard (its stamp plus
    /// `delay`), in order; a recorder keeps what was shown this way.
    public func release(heardBy now: Double, observe: ((AudioBuffer, Double) -> Void)? = nil) -> LevelReading {
        state.withLock { state in
            // A buffer is due once its first sample is heard: its stamp is its last sample's time.
            // A nanosecond's slack: a buffer starting exactly at `now` (a render's frame on a
            // buffer's edge) is due whatever the rounding of stamp minus duration.
            let due = state.waiting.prefix { $0.captureTime - $0.duration + state.delay <= now + Self.edgeSlack }.count
            for index in 0 ..< due {
                let buffer = state.waiting[index]
                observe?(buffer, buffer.captureTime + state.delay)
                if buffer.sampleRate != state.sampleRate || buffer.channelCount != state.channelCount {
                    // A new device or file: earlier audio says nothing about this one.
                    state.sampleRate = buffer.sampleRate
                    state.channelCount = buffer.channelCount
                    state.processor = LevelProcessor(channelCount: buffer.channelCount)
                    state.history.reset()
                    state.rms.reset()
                }
                state.processor.process(buffer)
                state.history.append(buffer)
                state.rms.add(buffer)
                state.loudness?.add(buffer)
            }
            state.waiting.removeFirst(due)
            let passed = state.onsets.prefix { $0.start + state.delay <= now }.count
            if passed > 0 { state.lastBurst = state.onsets[passed - 1].time + state.delay }
            state.onsets.removeFirst(passed)
            let heard = state.beats.prefix { $0.time + state.delay <= now }.count
            if heard > 0 {
                let last = state.beats[heard - 1]
                state.pulse = BeatPulse(lastBeat: last.time + state.delay, bpm: last.bpm, confidence: last.confidence)
                state.beats.removeFirst(heard)
            }
            return state.processor.takeReading()
        }
    }

    /// The sample rate and channel count of the audio released last (nil before any).
    public var format: (sampleRate: Int, channelCount: Int)? {
        state.withLock { $0.sampleRate > 0 ? ($0.sampleRate, $0.channelCount) : nil }
    }

    /// RMS over the last 300 ms of released audio, per channel (left and right; mono repeats).
    public func windowRMSDB(channel: Int) -> Float {
        state.withLock { $0.rms.rmsDB(channel: Swift.min(channel, 1)) }
    }

    /// Copies the newest released samples of `channel` (0 left, 1 right; mono repeats), oldest first.
    public func copyLatest(channel: Int, into destination: UnsafeMutableBufferPointer<Float>) {
        state.withLock { $0.history.copyLatest(channel: Swift.min(channel, 1), into: destination) }
    }

    /// Measures EBU R128 loudness of everything released from now on, with the analyzer `make`
    /// returns (which starts again by itself on a new device or file format). It is made under the
    /// feed's lock and only ever touched there, by the thread that releases audio.
    public func measureLoudness(with make: () -> any LoudnessAnalyzer) {
        state.withLock { state in
            if state.loudness == nil { state.loudness = make() }
        }
    }

    /// Whether loudness is being measured.
    public var measuresLoudness: Bool {
        state.withLock { $0.loudness != nil }
    }

    /// The loudness of the audio released since measuring began (nil when not measuring).
    public var loudness: LoudnessReading? {
        state.withLock { $0.loudness?.reading }
    }

    /// Forgets everything not heard yet (after a seek, it never will be).
    public func discardWaiting() {
        state.withLock { state in
            state.waiting.removeAll(keepingCapacity: true)
            state.beats.removeAll(keepingCapacity: true)
            state.onsets.removeAll(keepingCapacity: true)
        }
    }
}
