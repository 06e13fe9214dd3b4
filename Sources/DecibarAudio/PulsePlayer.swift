import CPulse
import DecibarCore
import Synchronization

/// What a source gives the sound server's write callback.
public enum PlaybackRender: Sendable, Equatable {
    /// This many frames were copied (fewer than asked: the source fell behind, an underrun).
    case audio(frames: Int)
    /// The last frames of the audio, this many (fewer than asked is no underrun: nothing follows).
    case last(frames: Int)
    /// Nothing yet, and none is due (the first audio after a seek is still being decoded);
    /// `whenAudioArrives` is called once it is there.
    case waiting
    /// The audio is over.
    case ended
}

/// Where a player's audio comes from: interleaved float frames, ready before they are asked for.
public protocol PlaybackSource: AnyObject, Sendable {
    var sampleRate: Int { get }
    var channelCount: Int { get }
    /// Where each channel belongs (as many as `channelCount`).
    var speakerPositions: [SpeakerPosition] { get }
    /// Copies up to `frames` frames into `buffer`. Runs on the sound server's thread: it must only
    /// copy (never decode, block or allocate).
    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) -> PlaybackRender
    /// Moves to `frame` and returns at once; audio from there follows, exactly from `frame`.
    func seek(toFrame frame: Int64)
    /// Called (on the source's own thread) when audio arrives after `render` said `.waiting`.
    var whenAudioArrives: (@Sendable () -> Void)? { get set }
    /// The file frame of `playedFrame`, a count of frames played on from the latest seek's target
    /// (they differ once an A-B loop jumped back).
    func fileFrame(playedFrame: Double) -> Double
}

extension PlaybackSource {
    public func fileFrame(playedFrame: Double) -> Double { playedFrame }
}

/// Plays a `PlaybackSource` through a PulseAudio playback stream with a small target latency, and
/// taps what it writes: the same 256-frame buffers as a live tap, each stamped with when it will
/// be heard, so levels and playhead can be shown in step with the sound.
///
/// Between the source and the stream sits a `PlaybackStage`: a thread of its own stretches the
/// audio when the rate or pitch is not normal and keeps a short lead ready, so the write callback
/// only copies.
// Unchecked: state beyond the atomics and mutexes is touched only on the mainloop thread or
// under its lock (libpulse's own), which the compiler cannot see.
public final class PulsePlayer: @unchecked Sendable {
    /// The samples written, as 256-frame buffers; `captureTime` is when each will be heard.
    public let buffers: AudioBufferStream
    public let sampleRate: Int
    public let channelCount: Int

    /// Touched only on the mainloop thread, or under its lock (and by `stop` once that thread is gone).
    private var handOver: AudioHandOver
    private let mainloop: PulseMainloop
    private let stage: PlaybackStage
    private let priority: (any ThreadPriority)?
    private let stopRequested = Mutex(false)
    private let positionBox = Mutex(Position())
    private let underruns = Atomic<Int>(0)
    /// Set when the sound server or the stream went away after playing had started.
    private let lost = Atomic<Bool>(false)
    private let dropouts = Atomic<Int>(0)

    // Mainloop thread or lock only.
    private var context: OpaquePointer?
    private var stream: OpaquePointer?
    private var rechunker: Rechunker
    /// Frames written to the server since the start.
    private var outputFrame: Int64 = 0
    private var endOfSource = false
    /// The stage said `.waiting`: the stream has stopped asking, so new audio is written on arrival.
    private var isStarved = false
    /// The stage gave less than the stream asked for: the rest is written on arrival.
    private var isShort = false
    private var failure: String?
    private var isReady = false
    /// Set by a seek until the first samples from the new position are handed to the server.
    private var awaitsSeekWrite = false
    private var seekWrittenAt: Double?
    /// While corked, tapped buffers wait in `handOver`: their stamps assume the stream plays now,
    /// and are put right when it starts (a track's first ~50 ms were otherwise stamped up to 10 ms
    /// late: the latency of a stream not yet running is a guess).
    private var holdsTap = true
    /// When the last sample written will be heard, as stamped.
    private var writtenHeardAt = 0.0
    /// When what is written is heard, from the server's timing snapshots; started again whenever
    /// the stream's time is broken off (a flush, a cork, the server running dry).
    private var heardClock = HeardClock()
    /// The snapshot last taken into `heardClock`.
    private var lastSnapshot: timeval?
    private var lastTimingRequest = -Double.infinity

    /// The server's queue: what covers the wait for a request to reach this process and its answer
    /// to reach the sink. Its own main thread carries both ways at normal priority; with six busy
    /// loops beside it, the queue at a request was down to 23 ms of 50 (and in CI ran dry), so 75.
    /// A change of rate or pitch is heard after it (the bars and playhead follow the heard time).
    public static let targetLatency = 0.075
    /// The server's buffer holds at least this many frames, whatever the rate.
    static let minimumTargetFrames = 32

    struct Position {
        var outputFrame: Int64 = 0
        var map = PlayheadMap()
        var latency: Double = PulsePlayer.targetLatency
        /// When `latency` was measured: the queue has played down since, while the stream plays.
        var latencyMeasuredAt = 0.0
        var isPaused = false
        var finished = false
        var seekWrittenAt: Double?
        /// A seek while paused: nothing has been heard since, so this frame is what is heard. (The
        /// queue's latency, read while corked and just flushed, could leave out the new audio
        /// written behind it: the playhead read up to the whole queue, 56 ms, past the target.)
        var soughtWhilePaused: Int64?
    }

    /// - Parameters:
    ///   - volume: the stream's volume in percent on the server's scale (100: as the file is).
    ///   - server: the server to use; nil means the usual one ($PULSE_SERVER, the session's).
    ///   - rate, pitchScale: the speed and pitch from the first frame (`setTimeAndPitch` after
    ///     the stream opened would let its first writes, up to the server's buffer, go at normal speed).
    ///   - priority: raises the threads that keep the sound going (the stage's and libpulse's).
    public init(source: PlaybackSource, name: String = "Decibar player", volume: Double = 100, server: String? = nil,
                rate: Double = 1, pitchScale: Double = 1, priority: (any ThreadPriority)? = nil) throws(TapError) {
        guard let mainloop = PulseMainloop() else { throw TapError(pulseLibrary.failure ?? "cannot start the PulseAudio client thread") }
        self.mainloop = mainloop
        self.priority = priority
        sampleRate = source.sampleRate
        channelCount = min(source.channelCount, AudioBuffer.maxChannels)
        rechunker = Rechunker(channelCount: channelCount, sampleRate: sampleRate)
        (buffers, handOver) = AudioBufferStream.make(bufferLimit: 512)
        stage = PlaybackStage(source: source, channelCount: channelCount, rate: rate, pitchScale: pitchScale, priority: priority)
        // Before the stream connects: its first request can come (and be told to wait) while it does,
        // and the stage's call that its audio is there must not find nobody to tell.
        stage.whenAudioArrives = { [weak self] in self?.refill() }
        try connect(name: name, volume: volume, server: server)
    }

    deinit { stop() }

    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    private static func from(_ userData: UnsafeMutableRawPointer?) -> PulsePlayer {
        Unmanaged<PulsePlayer>.fromOpaque(userData!).takeUnretainedValue()
    }

    /// Connects and opens the stream corked (silent) until `play()`; fails with one line.
    private func connect(name: String, volume: Double, server: String?) throws(TapError) {
        let outcome: String? = mainloop.locked {
            guard let context = mainloop.makeContext() else { return "cannot create a PulseAudio context" }
            self.context = context
            pulseFunctions.pa_context_set_state_callback!(context, { context, userData in
                let player = PulsePlayer.from(userData)
                let state = pulseFunctions.pa_context_get_state!(context)
                // This callback runs on the mainloop thread, the one that writes to the server.
                if state == PA_CONTEXT_READY { player.priority?.raiseCurrentThread() }
                if state == PA_CONTEXT_READY || state.isFinished {
                    if state.isFinished {
                        player.failure = pulseErrorText(pulseFunctions.pa_context_errno!(context))
                        if player.isReady { player.lost.store(true, ordering: .releasing) }
                    }
                    player.mainloop.signal()
                }
            }, userData)
            let turn = FileModeMask.takeTurn()
            guard pulseFunctions.pa_context_connect!(context, server, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
                return "no audio server: \(pulseErrorText(pulseFunctions.pa_context_errno!(context)))"
            }
            while pulseFunctions.pa_context_get_state!(context) != PA_CONTEXT_READY && failure == nil { mainloop.wait() }
            turn.end()
            if let failure { return "no audio server: \(failure)" }

            var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(sampleRate), channels: UInt8(channelCount))
            // libpulse has no default map beyond six channels: name every channel's speaker.
            var map = pa_channel_map()
            if let named = PulseChannelMap.make(Array(stage.speakerPositions.prefix(channelCount))), named.channels == channelCount {
                map = named
            } else {
                pulseFunctions.pa_channel_map_init_extend!(&map, UInt32(channelCount), PA_CHANNEL_MAP_DEFAULT)
            }
            guard pulseFunctions.pa_sample_spec_valid!(&spec) != 0, map.channels == UInt8(channelCount),
                  let stream = pulseFunctions.pa_stream_new!(context, name, &spec, &map) else {
                return "cannot play \(sampleRate) Hz \(channelCount)-channel audio"
            }
            self.stream = stream
            pulseFunctions.pa_stream_set_state_callback!(stream, { stream, userData in
                let player = PulsePlayer.from(userData)
                if let stream, pulseFunctions.pa_stream_get_state!(stream).isFinished, player.isReady { player.lost.store(true, ordering: .releasing) }
                player.mainloop.signal()
            }, userData)
            pulseFunctions.pa_stream_set_write_callback!(stream, { stream, bytes, userData in
                guard let stream else { return }
                PulsePlayer.from(userData).fill(stream, bytes: bytes)
            }, userData)
            pulseFunctions.pa_stream_set_underflow_callback!(stream, { _, userData in PulsePlayer.from(userData).serverRanDry() }, userData)
            let frameBytes = channelCount * MemoryLayout<Float>.size
            // A floor in frames: below a few hundred hertz the time target is a handful of frames,
            // and the server ran dry twice at every start however idle the machine (pacat too: at
            // 100 Hz with 16 frames, once; with 32, never).
            let targetFrames = max(Self.minimumTargetFrames, Int(Self.targetLatency * Double(sampleRate)))
            let target = UInt32(targetFrames * frameBytes)
            var attributes = pa_buffer_attr(maxlength: UInt32.max, tlength: target, prebuf: UInt32.max,
                                            minreq: UInt32.max, fragsize: UInt32.max)
            let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_START_CORKED.rawValue
                | PA_STREAM_AUTO_TIMING_UPDATE.rawValue | PA_STREAM_INTERPOLATE_TIMING.rawValue)
            var channelVolumes = Self.channelVolumes(percent: volume, channels: channelCount)
            guard pulseFunctions.pa_stream_connect_playback!(stream, nil, &attributes, flags, &channelVolumes, nil) >= 0 else {
                return "cannot play: \(pulseErrorText(pulseFunctions.pa_context_errno!(context)))"
            }
            while true {
                let state = pulseFunctions.pa_stream_get_state!(stream)
                if state == PA_STREAM_READY { break }
                if state.isFinished { return "cannot play: \(pulseErrorText(pulseFunctions.pa_context_errno!(context)))" }
                mainloop.wait()
            }
            isReady = true
            return nil
        }
        if let outcome {
            stop()
            throw TapError(outcome)
        }
    }

    /// The write callback: writes what the stage has ready, up to the request, and taps it. Only
    /// copies. A stage that is late writes what it has, and the rest as soon as it comes
    /// (`refill`): the server's own queue covers the wait (a short write with nothing after it
    /// could stall a stream that has not started). Only if that queue runs dry is silence heard,
    /// counted when the server says so.
    private func fill(_ stream: OpaquePointer, bytes: Int) {
        let frameBytes = channelCount * MemoryLayout<Float>.size
        var remaining = bytes
        isStarved = false
        isShort = false
        // What this request tapped goes to the reader at once: one wake-up of its own (held while
        // the stream is corked: when it will be heard is known only once it starts).
        defer { if !holdsTap { handOver.send() } }
        while remaining >= frameBytes, !endOfSource {
            var data: UnsafeMutableRawPointer?
            var chunk = remaining
            guard pulseFunctions.pa_stream_begin_write!(stream, &data, &chunk) >= 0, let data, chunk >= frameBytes else { return }
            let samples = data.assumingMemoryBound(to: Float.self)
            let requested = chunk / frameBytes
            let frames: Int
            switch stage.render(into: samples, frames: requested) {
            case .ended:
                pulseFunctions.pa_stream_cancel_write!(stream)
                endOfSource = true
                rechunker.flush { handOver.add($0) }
                // Drain what is queued, then report the end.
                if let operation = pulseFunctions.pa_stream_drain!(stream, { _, _, userData in
                    PulsePlayer.from(userData).positionBox.withLock { $0.finished = true }
                }, userData) { pulseFunctions.pa_operation_unref!(operation) }
                continue
            case .waiting:
                pulseFunctions.pa_stream_cancel_write!(stream)
                isStarved = true
                remaining = 0
                continue
            case .audio(let count) where count < requested:
                // The rest follows when the stage has it.
                isShort = true
                remaining = 0
                guard count > 0 else {
                    pulseFunctions.pa_stream_cancel_write!(stream)
                    continue
                }
                frames = count
            case .audio(let count):
                frames = count
            case .last(let count):
                // Nothing follows: a short end is padded, so the stream's last request is whole.
                (samples + count * channelCount).update(repeating: 0, count: (requested - count) * channelCount)
                frames = count
            }
            let written = isShort ? frames : requested
            pulseFunctions.pa_stream_write!(stream, data, written * frameBytes, nil, 0, PA_SEEK_RELATIVE)
            if awaitsSeekWrite && frames > 0 {
                awaitsSeekWrite = false
                seekWrittenAt = HostClock.now()
            }
            // Stamp each tapped buffer with when it will be heard: now plus the queue ahead of it.
            // (While corked, the queue just follows on: the start moves it all.)
            let heardAt = holdsTap && writtenHeardAt > 0 ? writtenHeardAt + Double(written) / Double(sampleRate)
                : writtenHeardTime(stream)
            writtenHeardAt = heardAt
            rechunker.append(UnsafeBufferPointer(start: samples, count: frames * channelCount), deliveredAt: heardAt) {
                handOver.add($0)
            }
            outputFrame += Int64(written)
            let noted = (outputFrame, stage.readFileFrame, stage.readRate)
            positionBox.withLock { $0.map.note(outputFrame: noted.0, fileFrame: noted.1, rate: noted.2) }
            remaining -= written * frameBytes
        }
        let heardAt = writtenHeardTime(stream)
        let measuredAt = HostClock.now()
        let latency = max(0, heardAt - measuredAt)
        positionBox.withLock {
            $0.outputFrame = outputFrame
            $0.latency = latency
            $0.latencyMeasuredAt = measuredAt
            $0.seekWrittenAt = seekWrittenAt
        }
    }

    /// Audio arrived after the stage made the stream wait (a seek) or gave it less than it asked
    /// for: write what the server wants now, from the stage's thread (under the mainloop lock, so
    /// still one writer at a time).
    private func refill() {
        mainloop.locked {
            // The stream's own state, not `isReady`: that is set only once `connect` returns, and
            // a stream ready before that may already be waiting for this audio.
            guard isStarved || isShort, let stream, pulseFunctions.pa_stream_get_state!(stream) == PA_STREAM_READY else { return }
            let writable = pulseFunctions.pa_stream_writable_size!(stream)
            if writable > 0 && writable != Int.max { fill(stream, bytes: writable) }
        }
    }

    /// How often the sound server ran dry because decoding fell behind (each time, a stretch of
    /// silence was heard).
    public var underrunCount: Int { underruns.load(ordering: .relaxed) }

    /// How often the sound server ran out of audio that the source had ready: this process was not
    /// scheduled in time to write it (a busy machine), and the server played silence meanwhile.
    public var dropoutCount: Int { dropouts.load(ordering: .relaxed) }

    /// The server's buffer ran dry (mainloop thread). Expected while the stage makes the stream
    /// wait (a seek) and after the end; anything else is an underrun (the decoder was behind) or a
    /// dropout (the audio was ready: this process was not scheduled in time).
    private func serverRanDry() {
        // What follows is heard later by the silence: the clock starts again either way.
        restartHeardClock()
        guard !isStarved && !endOfSource else { return }
        if stage.isSourceBehind {
            underruns.add(1, ordering: .relaxed)
        } else {
            dropouts.add(1, ordering: .relaxed)
        }
    }

    /// Seconds from a sample written now until it is heard, for a stream just uncorked. The
    /// server's answer often still says "not playing" (the sink starts it a moment later), and then
    /// libpulse's latency is off by the time since the answer (~5 ms): the queue is all ahead.
    private func startingLatency(_ stream: OpaquePointer) -> Double {
        guard let timing = pulseFunctions.pa_stream_get_timing_info!(stream)?.pointee, timing.playing == 0,
              timing.write_index_corrupt == 0, timing.read_index_corrupt == 0 else { return currentLatency(stream) }
        let queued = Double(max(0, timing.write_index - timing.read_index)) / Double(channelCount * MemoryLayout<Float>.size)
        return queued / Double(sampleRate) + Double(timing.sink_usec) / 1_000_000
    }

    /// When the last frame written so far is heard, from the server's timing snapshots of the
    /// stream through a `HeardClock`, as the libpulse tap reads its own: each snapshot says when
    /// the sink took which frame and how long it needs to play it. libpulse's own latency
    /// (`currentLatency`) interpolates with a rate it fits to snapshots about a second apart: in
    /// `decibar play` it strayed up to 3 ms in 6 s. A single snapshot can read late too (the
    /// server's main thread kept from a core between counting and taking its time: one write
    /// stamped 3.7 ms late in a test run); the clock's low edge of two seconds of them does not.
    /// libpulse's latency stands in until the clock has a snapshot (the stream's start, a seek).
    private func writtenHeardTime(_ stream: OpaquePointer) -> Double {
        noteTiming(of: stream)
        let frameBytes = Int64(channelCount * MemoryLayout<Float>.size)
        if let info = pulseFunctions.pa_stream_get_timing_info!(stream)?.pointee, info.write_index_corrupt == 0,
           let heard = heardClock.heardTime(ofPosition: info.write_index / frameBytes, sampleRate: sampleRate) {
            return heard
        }
        return HostClock.now() + currentLatency(stream)
    }

    /// Asks for a snapshot every 0.1 s (at once while the clock doubts one that read late), and
    /// takes each new one of a playing stream into the clock.
    private func noteTiming(of stream: OpaquePointer) {
        let now = HostClock.now()
        if now - lastTimingRequest >= (heardClock.isDoubting ? 0 : pa_timing_info.refreshInterval) {
            lastTimingRequest = now
            if let operation = pulseFunctions.pa_stream_update_timing_info!(stream, nil, nil) { pulseFunctions.pa_operation_unref!(operation) }
        }
        guard let info = pulseFunctions.pa_stream_get_timing_info!(stream)?.pointee, info.playing != 0,
              info.write_index_corrupt == 0, info.read_index_corrupt == 0, info.sink_usec < 10_000_000,
              lastSnapshot.map({ $0.tv_sec != info.timestamp.tv_sec || $0.tv_usec != info.timestamp.tv_usec }) ?? true else { return }
        lastSnapshot = info.timestamp
        // The frames the sink has taken (the read index) are heard after the sink's latency.
        heardClock.note(time: info.hostTime, written: info.read_index / Int64(channelCount * MemoryLayout<Float>.size), unqueued: 0,
                        outputLatency: Double(info.sink_usec) / 1_000_000, sampleRate: sampleRate)
    }

    /// The stream's time was broken off: the snapshots before say nothing of what follows.
    private func restartHeardClock() {
        heardClock.reset()
        lastSnapshot = nil
    }

    /// Seconds from a sample written now until it is heard, as libpulse interpolates it.
    private func currentLatency(_ stream: OpaquePointer) -> Double {
        var microseconds: pa_usec_t = 0
        var negative: Int32 = 0
        guard pulseFunctions.pa_stream_get_latency!(stream, &microseconds, &negative) >= 0 else { return Self.targetLatency }
        return negative != 0 ? 0 : Double(microseconds) / 1_000_000
    }

    /// The same volume on every channel; PulseAudio's scale is cubic, as `PlayerVolume` says.
    private static func channelVolumes(percent: Double, channels: Int) -> pa_cvolume {
        var volumes = pa_cvolume()
        // PA_VOLUME_NORM (0x10000) is 100 %.
        let level = pa_volume_t((max(0, percent) / 100 * 65536).rounded())
        pulseFunctions.pa_cvolume_set!(&volumes, UInt32(channels), level)
        return volumes
    }

    /// Sets the stream's volume on the server, in percent (the sound server applies it: the
    /// samples tapped for the bars are the file's own).
    public func setVolume(_ percent: Double) {
        mainloop.locked {
            guard let context, let stream, isReady else { return }
            var volumes = Self.channelVolumes(percent: percent, channels: channelCount)
            if let operation = pulseFunctions.pa_context_set_sink_input_volume!(context, pulseFunctions.pa_stream_get_index!(stream), &volumes, nil, nil) {
                pulseFunctions.pa_operation_unref!(operation)
            }
        }
    }

    /// Starts or resumes playback.
    public func play() { setCorked(false) }

    /// Pauses; the position holds.
    public func pause() { setCorked(true) }

    public var isPaused: Bool { positionBox.withLock { $0.isPaused } }

    /// Seconds from a sample written until it is heard, as last measured (the queue the stream
    /// keeps ahead of the speaker, and the sink's own).
    public var latency: Double { positionBox.withLock { $0.latency } }

    /// CLOCK_MONOTONIC seconds at which the first samples after the latest seek left for the server;
    /// nil until they have (the server asks for them once it has carried out the flush).
    public var lastSeekWrittenAt: Double? { positionBox.withLock { $0.seekWrittenAt } }

    /// True once the source ended and everything written has been played.
    public var isFinished: Bool { positionBox.withLock { $0.finished } }

    /// The sound server went away (stopped, restarted, crashed) or dropped the stream while it
    /// played: nothing more will be heard from this player. Make a new one when the server is back.
    public var isServerLost: Bool { lost.load(ordering: .acquiring) }

    private func setCorked(_ corked: Bool) {
        let started: Double? = mainloop.locked {
            guard let stream, isReady else { return nil }
            if let operation = pulseFunctions.pa_stream_cork!(stream, corked ? 1 : 0, nil, nil) { pulseFunctions.pa_operation_unref!(operation) }
            restartHeardClock()
            if corked { holdsTap = true }
            guard !corked, holdsTap else { return nil }
            return startHeldTap(stream)
        }
        let now = HostClock.now()
        positionBox.withLock { position in
            if let started {
                position.latency = started
            } else if !position.isPaused {
                // The queue played down until now, and holds from here while corked.
                position.latency -= min(position.latency, max(0, now - position.latencyMeasuredAt))
            }
            position.latencyMeasuredAt = now
            position.isPaused = corked
            if !corked { position.soughtWhilePaused = nil }
        }
    }

    /// The stream was just uncorked (mainloop locked): asks the server where it stands (answered
    /// after the uncork, one round trip), moves the stamps of what was written while corked onto
    /// that, and hands it over. Returns the latency measured.
    private func startHeldTap(_ stream: OpaquePointer) -> Double {
        if let operation = pulseFunctions.pa_stream_update_timing_info!(stream, { _, _, userData in
            PulsePlayer.from(userData).mainloop.signal()
        }, userData) {
            // A server that goes away cancels the operation, which ends the wait too.
            while pulseFunctions.pa_operation_get_state!(operation) == PA_OPERATION_RUNNING { mainloop.wait() }
            pulseFunctions.pa_operation_unref!(operation)
        }
        let latency = startingLatency(stream)
        let heardEnd = HostClock.now() + latency
        if writtenHeardAt > 0 { handOver.shiftPendingCaptureTimes(by: heardEnd - writtenHeardAt) }
        writtenHeardAt = heardEnd
        holdsTap = false
        handOver.send()
        return latency
    }

    /// Jumps to `frame`: what is queued is thrown away, so no old audio is heard after the seek.
    /// Returns at once; the source's thread decodes from there, and its first audio is written as
    /// soon as it is ready.
    public func seek(toFrame frame: Int64) {
        mainloop.locked {
            guard let stream, isReady else { return }
            stage.seek(toFrame: frame)
            let target = max(0, frame)
            endOfSource = false
            rechunker.reset(startFrame: target)
            awaitsSeekWrite = true
            seekWrittenAt = nil
            isStarved = true
            if let operation = pulseFunctions.pa_stream_flush!(stream, nil, nil) { pulseFunctions.pa_operation_unref!(operation) }
            restartHeardClock()
            positionBox.withLock {
                $0.map.restart(outputFrame: outputFrame, fileFrame: target)
                $0.soughtWhilePaused = $0.isPaused ? target : nil
                $0.finished = false
                $0.seekWrittenAt = seekWrittenAt
            }
        }
        // If the audio is already there (a seek within what was decoded is not), write it now.
        refill()
    }

    /// The frame being heard now: what was written, less what is still queued ahead of the speaker.
    public var heardFrame: Int64 {
        let sampleRate = Double(sampleRate)
        let now = HostClock.now()
        let playedFrame = positionBox.withLock { position in
            if let sought = position.soughtWhilePaused { return Double(sought) }
            // Between writes the queue keeps playing: without this the playhead would stand still
            // from one write to the next and lag by up to a write's worth.
            let played = position.isPaused ? 0 : min(position.latency, max(0, now - position.latencyMeasuredAt))
            let heard = position.outputFrame - Int64(((position.latency - played) * sampleRate).rounded())
            return position.map.fileFrame(atOutput: heard)
        }
        return max(0, Int64(stage.fileFrame(playedFrame: playedFrame).rounded()))
    }

    /// False when the rate and pitch given to `init` could not be set up (it plays at normal speed).
    public var canStretch: Bool { stage.canStretch }

    /// Sets the speed (file seconds per second, 1 normal) and the pitch (a frequency ratio, 1
    /// normal); the stage's next chunk takes them, without a gap (heard after its short lead and
    /// the server's queue). False when this audio cannot be stretched (Rubber Band cannot be set
    /// up for it): it then plays at normal speed and pitch.
    @discardableResult
    public func setTimeAndPitch(rate: Double, pitchScale: Double) -> Bool {
        stage.setTimeAndPitch(rate: rate, pitchScale: pitchScale)
    }

    public func stop() {
        guard stopRequested.setForTheFirstTime() else { return }
        // First, so that no late arrival of audio reaches for the mainloop about to be freed.
        stage.stop()
        mainloop.locked {
            if let stream {
                pulseFunctions.pa_stream_set_write_callback!(stream, nil, nil)
                pulseFunctions.pa_stream_set_state_callback!(stream, nil, nil)
                pulseFunctions.pa_stream_disconnect!(stream)
                pulseFunctions.pa_stream_unref!(stream)
            }
            stream = nil
            if let context { releaseContext(context) }
            context = nil
        }
        mainloop.shutDown()
        handOver.finish()
    }
}
