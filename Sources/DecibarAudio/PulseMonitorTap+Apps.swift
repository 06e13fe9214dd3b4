import CPulse
import DecibarCore

// Listening to apps: one record stream per matching playback stream, each on the server's
// monitor of that stream alone (`pa_stream_set_monitor_stream`), summed by a StreamMixer into
// the same 256-frame buffers. Everything here runs on the mainloop thread.
//
// On PulseAudio a new playback stream gets its capture the moment the server announces it, before
// anyone knows whose it is: asking first (one round trip) and connecting after (another) let a
// short sound play its start before the capture was there. What the capture holds stays in its
// stream until the answer comes; a stream of another app is then closed unread. pipewire-pulse
// announces streams before they are linked and says which when they are; a capture asked for at
// the announcement there was delivered in bursts 70 ms apart (each track heard in 10 to 20
// pieces), so there the capture waits for the answer, as before.
extension PulseMonitorTap {
    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    var appSelection: AppSelection? {
        if case .apps(let selection, _) = target { selection } else { nil }
    }

    /// Starts (or, after a reconnect, restarts) following the apps: the server's default output,
    /// the sinks, then every playback stream.
    func followApps() {
        guard let context else { return }
        startClock()
        apps.isListing = true
        let operation = pulseFunctions.pa_context_get_server_info!(context, { context, info, userData in
            guard let userData else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            guard context == tap.context else { return }
            tap.apps.defaultSinkName = info?.pointee.default_sink_name.map { String(cString: $0) } ?? ""
            tap.apps.isPipeWire = info?.pointee.server_name.map { String(cString: $0).contains("PipeWire") } ?? false
            tap.listSinks()
        }, userData)
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }

    /// Reads every sink (their monitors are where per-stream records connect), then every stream.
    func listSinks() {
        guard let context else { return }
        apps.listedSinks = [:]
        let operation = pulseFunctions.pa_context_get_sink_info_list!(context, { context, info, endOfList, userData in
            guard let userData else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            guard context == tap.context else { return }
            if let info {
                tap.apps.listedSinks[info.pointee.index] = TapDevice(monitorOf: info.pointee)
            } else if endOfList != 0 {
                tap.apps.sinks = tap.apps.listedSinks
                tap.chooseAppFormat()
                tap.listSinkInputs()
            }
        }, userData)
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }

    private func listSinkInputs() {
        guard let context else { return }
        apps.listedInputs = []
        let operation = pulseFunctions.pa_context_get_sink_input_info_list!(context, { context, info, endOfList, userData in
            guard let userData else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            guard context == tap.context else { return }
            if let info {
                tap.apps.listedInputs.append(info.pointee.index)
                tap.consider(info.pointee)
            } else if endOfList != 0 {
                // Streams that ended while nobody told us (a missed event) go too.
                let listed = tap.apps.listedInputs
                for capture in tap.apps.captures where !listed.contains(capture.sinkInput) {
                    tap.closeCapture(capture)
                }
                tap.apps.isListing = false
                tap.updateAppStatus()
            }
        }, userData)
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }

    /// Asks about one playback stream (new, changed, or whose capture ended).
    func lookUpSinkInput(_ index: UInt32) {
        if answerDelayForTesting > 0 {
            // A slow round trip, for tests: the question goes out that much later (the thread
            // stays free, as it is while a real answer is on its way).
            let delayed = Unmanaged.passRetained(DelayedLookUp(tap: self, index: index)).toOpaque()
            _ = mainloop.scheduleTimer(after: answerDelayForTesting, userData: delayed) { api, event, _, userData in
                guard let userData else { return }
                let delayed = Unmanaged<DelayedLookUp>.fromOpaque(userData).takeRetainedValue()
                if let api, let event { api.pointee.time_free(event) }
                if !delayed.tap.isStopped { delayed.tap.askAboutSinkInput(delayed.index) }
            }
            return
        }
        askAboutSinkInput(index)
    }

    private func askAboutSinkInput(_ index: UInt32) {
        guard let context else { return }
        let operation = pulseFunctions.pa_context_get_sink_input_info!(context, index, { context, info, _, userData in
            guard let userData, let info else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            guard context == tap.context else { return }
            tap.consider(info.pointee)
            tap.updateAppStatus()
        }, userData)
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }

    /// Subscription events while following apps.
    func appEvent(facility: UInt32, kind: UInt32, index: UInt32) {
        switch facility {
        case PA_SUBSCRIPTION_EVENT_SINK_INPUT.rawValue:
            if kind == PA_SUBSCRIPTION_EVENT_REMOVE.rawValue {
                if let capture = apps.captures.first(where: { $0.sinkInput == index }) { closeCapture(capture) }
                apps.ignored.remove(index)
                apps.noticed.remove(index)
                updateAppStatus()
            } else {
                if kind == PA_SUBSCRIPTION_EVENT_NEW.rawValue && !apps.isPipeWire { openCapture(of: index) }
                lookUpSinkInput(index)
            }
        case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
            // A new output, or another default: look at everything again.
            followApps()
        default:
            break
        }
    }

    /// Opens, keeps, moves or closes the capture of one playback stream.
    private func consider(_ info: pa_sink_input_info) {
        guard let selection = appSelection else { return }
        let name = info.proplist.flatMap { pulseFunctions.pa_proplist_gets!($0, PA_PROP_APPLICATION_NAME) }.map { String(cString: $0) }
        let binary = info.proplist.flatMap { pulseFunctions.pa_proplist_gets!($0, PA_PROP_APPLICATION_PROCESS_BINARY) }.map { String(cString: $0) }
        // PipeWire announces a stream before it is linked to an output (a change event follows).
        // Its capture is opened at once when the output does not matter: waiting for the link
        // could miss the stream's first quantum.
        let isLinked = info.sink != UInt32.max
        let sink = isLinked ? apps.sinks[info.sink] : nil
        if isLinked && sink == nil {
            // An output we have not seen yet: read the sinks again (which looks at every stream).
            if !apps.isListing { followApps() }
            return
        }
        guard case .apps(_, let output) = target else { return }
        if !isLinked && (output != nil || selection.apps.isEmpty) { return }
        let wanted = selection.includes(name: name, binary: binary) && (sink.map(isHeardOutput) ?? true)
        if let existing = apps.captures.first(where: { $0.sinkInput == info.index }) {
            if wanted && existing.lane == nil {
                confirm(existing, label: name ?? binary ?? "stream \(info.index)")
            }
            if wanted {
                // Moved: PulseAudio ends the capture itself (it is opened again when that is
                // seen); PipeWire's stays with the stream.
                existing.sink = info.sink
            } else {
                closeCapture(existing)
            }
            return
        }
        guard wanted, let capture = openCapture(of: info.index, on: info.sink, deviceName: sink?.name) else { return }
        confirm(capture, label: name ?? binary ?? "stream \(info.index)")
    }

    /// A capture found to be of a wanted stream: given a lane of the mix, and what it holds so far mixed.
    private func confirm(_ capture: AppCapture, label: String) {
        guard let mixer, let lane = mixer.openLane() else {
            closeCapture(capture)
            apps.ignored.insert(capture.sinkInput)
            if apps.noticed.insert(capture.sinkInput).inserted {
                notice?("\(StreamMixer.maximumLanes) streams are already heard; \(label) (stream \(capture.sinkInput)) is left out until one ends")
            }
            return
        }
        apps.ignored.remove(capture.sinkInput)
        apps.noticed.remove(capture.sinkInput)
        capture.lane = lane
        if let stream = capture.stream, pulseFunctions.pa_stream_get_state!(stream) == PA_STREAM_READY {
            readCapture(capture, from: stream)
        }
    }

    /// Whether streams playing to `sink` count: the named output only; with exclusions alone, the
    /// default output (what the whole-output tap would hear); otherwise any.
    private func isHeardOutput(_ sink: TapDevice) -> Bool {
        guard case .apps(let selection, let output) = target else { return false }
        if let output {
            return sink.name == output || sink.sinkName == output
        }
        return !selection.apps.isEmpty || sink.sinkName == apps.defaultSinkName
    }

    /// The format every capture is opened in (the server converts), so they can be summed: the
    /// default output's rate and channels, or 48 kHz stereo without one.
    private func chooseAppFormat() {
        let defaultSink = apps.sinks.values.first { $0.sinkName == apps.defaultSinkName } ?? apps.sinks.values.first
        var format = TapDevice(name: appSelection?.summary ?? "", description: appSelection?.summary ?? "",
                               sampleRate: defaultSink?.sampleRate ?? 48000,
                               channelCount: min(defaultSink?.channelCount ?? 2, AudioBuffer.maxChannels))
        format.channelPositions = defaultSink.map { Array($0.channelPositions.prefix(AudioBuffer.maxChannels)) } ?? []
        if let current = apps.format, current.sampleRate == format.sampleRate, current.channelCount == format.channelCount,
           mixer != nil {
            return
        }
        // A new format: what was captured in the old one is mixed out first.
        for capture in apps.captures { closeCapture(capture) }
        apps.format = format
        mixer = StreamMixer(channelCount: format.channelCount, sampleRate: format.sampleRate,
                            patience: Self.appPatience(fragmentDuration: fragmentDuration))
        frameBytes = format.channelCount * MemoryLayout<Float>.size
        rechunker = Rechunker(channelCount: format.channelCount, sampleRate: format.sampleRate)
    }

    /// How long a stream may send nothing before the mix stops waiting for it: two deliveries and some.
    static func appPatience(fragmentDuration: Double?) -> Double {
        2 * (fragmentDuration ?? 0.006) + 0.03
    }

    /// Opens a capture of a playback stream, not yet mixed (`confirm` does that). `deviceName` is
    /// the output's monitor; without it the server takes the monitor of the output the stream
    /// plays to (PulseAudio) or the stream alone (PipeWire).
    @discardableResult
    private func openCapture(of sinkInput: UInt32, on sinkIndex: UInt32 = .max, deviceName: String? = nil) -> AppCapture? {
        guard let context, let format = apps.format, mixer != nil,
              !apps.captures.contains(where: { $0.sinkInput == sinkInput }) else { return nil }
        var map = PulseChannelMap.make(rawPositions: format.channelPositions) ?? pa_channel_map()
        if Int(map.channels) != format.channelCount {
            pulseFunctions.pa_channel_map_init_extend!(&map, UInt32(format.channelCount), PA_CHANNEL_MAP_DEFAULT)
        }
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channelCount))
        guard let stream = pulseFunctions.pa_stream_new!(context, "Level tap (stream \(sinkInput))", &spec, &map) else { return nil }
        let capture = AppCapture(tap: self, sinkInput: sinkInput, sink: sinkIndex, stream: stream)
        apps.captures.append(capture)
        let captureData = Unmanaged.passUnretained(capture).toOpaque()
        pulseFunctions.pa_stream_set_monitor_stream!(stream, sinkInput)
        pulseFunctions.pa_stream_set_read_callback!(stream, { stream, _, userData in
            guard let stream, let userData else { return }
            let capture = Unmanaged<AppCapture>.fromOpaque(userData).takeUnretainedValue()
            capture.tap.readCapture(capture, from: stream)
        }, captureData)
        pulseFunctions.pa_stream_set_state_callback!(stream, { stream, userData in
            guard let stream, let userData else { return }
            let capture = Unmanaged<AppCapture>.fromOpaque(userData).takeUnretainedValue()
            capture.tap.captureStateChanged(capture, stream: stream)
        }, captureData)
        var attributes = bufferAttributes(fragmentDuration: fragmentDuration, sampleRate: format.sampleRate)
        let timing = measuresSinkLatency ? PA_STREAM_AUTO_TIMING_UPDATE.rawValue : 0
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_MOVE.rawValue | timing)
        if pulseFunctions.pa_stream_connect_record!(stream, deviceName, &attributes, flags) < 0 {
            notice?("cannot listen to stream \(sinkInput): \(pulseErrorText(pulseFunctions.pa_context_errno!(context)))")
            closeCapture(capture)
            return nil
        }
        return capture
    }

    private func captureStateChanged(_ capture: AppCapture, stream: OpaquePointer) {
        guard stream == capture.stream, !isStopped else { return }
        let state = pulseFunctions.pa_stream_get_state!(stream)
        if state == PA_STREAM_READY {
            capture.isReady = true
            if capture.lane != nil { readCapture(capture, from: stream) }
            updateAppStatus()
        } else if state.isFinished {
            // The stream ended, or PulseAudio moved it to another output (which ends its
            // monitor): what arrived is mixed out, and if the stream is still there it is followed.
            let sinkInput = capture.sinkInput
            closeCapture(capture)
            updateAppStatus()
            lookUpSinkInput(sinkInput)
        }
    }

    /// Drains a capture: peek, queue on its lane, drop; mixes what every playing lane has. No allocation.
    private func readCapture(_ capture: AppCapture, from stream: OpaquePointer) {
        // Unconfirmed: what arrives waits in the stream.
        guard stream == capture.stream, let lane = capture.lane, let mixer else { return }
        let now = HostClock.now()
        if !capture.hasDelivered {
            // What it holds began that long ago: the silence before it is due first (the clock
            // may not have said it yet), or the gap between two tracks would vanish.
            let waiting = pulseFunctions.pa_stream_readable_size!(stream)
            guard waiting > 0 else { return }
            capture.hasDelivered = true
            let sampleRate = Double(apps.format?.sampleRate ?? 48000)
            mixer.mix(now: now - Double(waiting / frameBytes) / sampleRate) { emitMixed($0, frames: $1, at: now) }
        }
        drain(stream, into: lane, of: mixer, now: now)
        handOver.send()
        // While streams deliver, the mix moves with them: the clock need not wake until they all
        // could have stalled (a watchdog pushed on by each delivery; no wake-up of its own).
        if let timer = clockTimer {
            apps.clockWaitedForReads = false
            setClock(timer, after: mixer.patience + 0.001)
        }
        reconsiderLeftOut()
        if measuresSinkLatency, let timing = pulseFunctions.pa_stream_get_timing_info!(stream), timing.pointee.sink_usec < 10_000_000 {
            capture.sinkLatency = timing.pointee.sink_usec
            // Streams on several outputs: the slowest decides when the sum is heard.
            let latency = apps.captures.reduce(0) { $1.lane == nil ? $0 : max($0, $1.sinkLatency) }
            sinkLatencyMicroseconds.store(latency, ordering: .relaxed)
        }
    }

    /// Queues everything the stream holds on its lane, mixing what every playing lane has.
    private func drain(_ stream: OpaquePointer, into lane: Int, of mixer: StreamMixer, now: Double) {
        while pulseFunctions.pa_stream_readable_size!(stream) > 0 {
            var data: UnsafeRawPointer?
            var byteCount = 0
            guard pulseFunctions.pa_stream_peek!(stream, &data, &byteCount) >= 0, byteCount > 0 else { break }
            let frames = byteCount / frameBytes
            let samples = data.map { UnsafeBufferPointer(start: $0.assumingMemoryBound(to: Float.self), count: frames * mixer.channelCount) }
            captureObserverForTesting?(samples, frames)
            mixer.append(samples, frames: frames, to: lane, now: now) { emitMixed($0, frames: $1, at: now) }
            pulseFunctions.pa_stream_drop!(stream)
        }
    }

    private func emitMixed(_ samples: UnsafeBufferPointer<Float>?, frames: Int, at now: Double) {
        if let samples {
            rechunker.append(samples, deliveredAt: now) { handOver.add($0) }
        } else {
            rechunker.appendSilence(frames: frames, deliveredAt: now) { handOver.add($0) }
        }
    }

    /// Ends a capture; its lane's frames are still mixed, with what its stream still held (the
    /// last delivery can wait there when the playback stream's end is told first).
    func closeCapture(_ capture: AppCapture) {
        if let stream = capture.stream {
            if let mixer, let lane = capture.lane, pulseFunctions.pa_stream_get_state!(stream) == PA_STREAM_READY {
                drain(stream, into: lane, of: mixer, now: HostClock.now())
            }
            pulseFunctions.pa_stream_set_read_callback!(stream, nil, nil)
            pulseFunctions.pa_stream_set_state_callback!(stream, nil, nil)
            pulseFunctions.pa_stream_disconnect!(stream)
            pulseFunctions.pa_stream_unref!(stream)
            capture.stream = nil
        }
        apps.captures.removeAll { $0 === capture }
        let now = HostClock.now()
        if let lane = capture.lane {
            mixer?.closeLane(lane, now: now) { emitMixed($0, frames: $1, at: now) }
        }
        handOver.send()
    }

    /// Once a lane is free (an ended stream's last frames mixed), looks again at the streams left out.
    private func reconsiderLeftOut() {
        guard !apps.ignored.isEmpty, let mixer, mixer.openLaneCount < StreamMixer.maximumLanes else { return }
        let leftOut = apps.ignored
        apps.ignored = []
        for index in leftOut { lookUpSinkInput(index) }
    }

    /// Ends every capture (the server went away, or the tap stops).
    func closeCaptures() {
        apps.ignored = []
        apps.noticed = []
        for capture in apps.captures { closeCapture(capture) }
    }

    func updateAppStatus() {
        guard let selection = appSelection, context != nil, !isStopped else { return }
        if apps.captures.contains(where: { $0.isReady && $0.lane != nil }), let format = apps.format {
            setStatus(.capturing(format))
        } else {
            setStatus(.waitingForApp(selection.waitingText))
        }
    }

    // MARK: The clock

    /// Keeps the mix going between deliveries: silence while nothing plays, and a look at lanes
    /// that stopped delivering. Runs until the tap stops, through reconnections.
    private func startClock() {
        guard clockTimer == nil else { return }
        let tick = clockTick
        apps.clockDue = HostClock.now() + tick
        clockTimer = mainloop.scheduleTimer(after: tick, userData: userData) { _, _, _, userData in
            guard let userData else { return }
            Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue().clockFired()
        }
    }

    /// Silence is emitted in pieces of one delivery; a window at rest takes 100 ms ones after a second.
    private var clockTick: Double {
        let sampleRate = Double(apps.format?.sampleRate ?? 48000)
        let tick = fragmentDuration ?? Double(AudioBuffer.frameCapacity) / sampleRate
        if relaxesInSilence, let silentSince = apps.silentSince, HostClock.now() - silentSince >= Self.relaxAfter {
            return max(tick, Self.relaxedFragmentDuration)
        }
        return tick
    }

    private func clockFired() {
        guard let timer = clockTimer, !isStopped else { return }
        let now = HostClock.now()
        // Woken late (this thread kept from running): deliveries may be waiting unread, and
        // libpulse runs a due timer before it reads. A lane would be taken for stalled and its
        // audio put after a silence that was never played: the reads go first (once).
        if now - apps.clockDue > Self.clockLateness, !apps.clockWaitedForReads {
            apps.clockWaitedForReads = true
            setClock(timer, after: 0.001)
            return
        }
        apps.clockWaitedForReads = false
        if let mixer {
            mixer.mix(now: now) { emitMixed($0, frames: $1, at: now) }
            handOver.send()
        }
        reconsiderLeftOut()
        // While a lane plays, wake only when it could count as stalled; otherwise at the tick.
        if let check = mixer?.nextStallCheck(after: now) {
            apps.silentSince = nil
            setClock(timer, after: check - now + 0.001)
        } else {
            if apps.silentSince == nil { apps.silentSince = now }
            setClock(timer, after: clockTick)
        }
    }

    /// A clock this much past its time woke late: more than a busy machine's usual wake-up.
    static let clockLateness = 0.002

    private func setClock(_ timer: OpaquePointer, after delay: Double) {
        apps.clockDue = HostClock.now() + delay
        mainloop.restartTimer(timer, after: delay)
    }

    func stopClock() {
        if let clockTimer { mainloop.cancelTimer(clockTimer) }
        clockTimer = nil
    }
}

/// What the tap knows while following apps; touched on the mainloop thread only.
struct AppFollowing {
    var defaultSinkName = ""
    /// The server is pipewire-pulse, not PulseAudio.
    var isPipeWire = false
    /// Sinks by index, as monitors (the device a capture connects to), and the list being read.
    var sinks: [UInt32: TapDevice] = [:]
    var listedSinks: [UInt32: TapDevice] = [:]
    var listedInputs: [UInt32] = []
    /// Sinks and streams are being read again (each stream is looked at when they are).
    var isListing = false
    var captures: [AppCapture] = []
    /// Matching streams left out because 16 are heard, to be looked at again when a lane frees,
    /// and those already said (once each).
    var ignored: Set<UInt32> = []
    var noticed: Set<UInt32> = []
    /// The format of every capture and of the mix.
    var format: TapDevice?
    /// Since when no lane has played (for the clock's pace).
    var silentSince: Double?
    /// When the clock is due, and whether it last woke late and waited for the reads first.
    var clockDue = 0.0
    var clockWaitedForReads = false
}

/// A question about a playback stream held back by `answerDelayForTesting`.
// Unchecked: made and used on the mainloop thread only.
private final class DelayedLookUp: @unchecked Sendable {
    let tap: PulseMonitorTap
    let index: UInt32

    init(tap: PulseMonitorTap, index: UInt32) {
        self.tap = tap
        self.index = index
    }
}

/// One record stream on the monitor of one playback stream.
// Unchecked: touched only on the mainloop thread (callbacks and calls under its lock).
final class AppCapture: @unchecked Sendable {
    unowned let tap: PulseMonitorTap
    let sinkInput: UInt32
    /// The output it plays to (UInt32.max before PipeWire links it).
    var sink: UInt32
    /// Its lane of the mix, once it is known to be a wanted app's (nil until then).
    var lane: Int?
    /// Whether anything it captured has been mixed yet.
    var hasDelivered = false
    var stream: OpaquePointer?
    var isReady = false
    var sinkLatency: UInt64 = 0

    init(tap: PulseMonitorTap, sinkInput: UInt32, sink: UInt32, stream: OpaquePointer) {
        self.tap = tap
        self.sinkInput = sinkInput
        self.sink = sink
        self.stream = stream
    }
}
