import CPulse
import DecibarCore

// The record stream: float32 at the device's own rate, 256-frame fragments, re-chunked exactly.
extension PulseMonitorTap {
    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Moves the tap to `device`, unless it is already there.
    func openStream(on device: TapDevice) {
        guard let context, !isStopped else { return }
        if stream != nil, streamDevice?.name == device.name { return }
        closeStream()

        // The device's own layout when a buffer can carry it (libpulse has no default map beyond
        // six channels, so 7.1 needs it); a wider device is down-mixed to stereo by the server.
        let deviceMap = device.channelCount <= AudioBuffer.maxChannels ? PulseChannelMap.make(rawPositions: device.channelPositions) : nil
        var map = pa_channel_map()
        if let deviceMap, Int(deviceMap.channels) == device.channelCount {
            map = deviceMap
        } else if device.channelCount >= 1 && device.channelCount <= AudioBuffer.maxChannels {
            pulseFunctions.pa_channel_map_init_extend!(&map, UInt32(device.channelCount), PA_CHANNEL_MAP_DEFAULT)
        } else {
            pulseFunctions.pa_channel_map_init_stereo!(&map)
        }
        let channelCount = Int(map.channels)
        var spec = pa_sample_spec(format: PA_SAMPLE_FLOAT32LE, rate: UInt32(device.sampleRate),
                                  channels: UInt8(channelCount))
        guard pulseFunctions.pa_sample_spec_valid!(&spec) != 0,
              let stream = pulseFunctions.pa_stream_new!(context, "Level tap", &spec, &map) else {
            setStatus(.waitingForDevice(reason: "cannot open \(device.name): unsupported format (\(device.sampleRate) Hz, \(device.channelCount) channels)"))
            return
        }
        self.stream = stream
        var opened = device
        opened.channelCount = channelCount
        streamDevice = opened
        frameBytes = channelCount * MemoryLayout<Float>.size
        rechunker = Rechunker(channelCount: channelCount, sampleRate: device.sampleRate)
        deliveryClock.reset()
        heardClock.reset()
        lastSnapshot = nil

        pulseFunctions.pa_stream_set_read_callback!(stream, { stream, _, userData in
            guard let stream, let userData else { return }
            Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue().readAvailable(from: stream)
        }, userData)
        pulseFunctions.pa_stream_set_state_callback!(stream, { stream, userData in
            guard let stream, let userData else { return }
            Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue().streamStateChanged(stream)
        }, userData)

        // Ask for 256-frame fragments (or whole multiples for a headless reader); without
        // ADJUST_LATENCY the server may batch far more.
        var attributes = bufferAttributes(fragmentDuration: fragmentDuration, sampleRate: device.sampleRate)
        silentFrames = 0
        isRelaxed = false
        // DONT_MOVE: we follow the default sink ourselves; if the source vanishes we get told.
        // AUTO_TIMING_UPDATE: the server refreshes the timing info (with the sink's latency) by itself.
        let timing = measuresSinkLatency ? PA_STREAM_AUTO_TIMING_UPDATE.rawValue : 0
        let flags = pa_stream_flags_t(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue | PA_STREAM_DONT_MOVE.rawValue | timing)
        if pulseFunctions.pa_stream_connect_record!(stream, device.name, &attributes, flags) < 0 {
            let reason = pulseErrorText(pulseFunctions.pa_context_errno!(context))
            closeStream()
            setStatus(.waitingForDevice(reason: "cannot record from \(device.name): \(reason)"))
        }
    }

    private func streamStateChanged(_ changed: OpaquePointer) {
        guard changed == stream, !isStopped else { return }
        let state = pulseFunctions.pa_stream_get_state!(changed)
        if state == PA_STREAM_READY, let device = streamDevice {
            setStatus(.capturing(device))
        } else if state.isFinished {
            // The source went away (unplugged, sink removed). If the server is still there, look again.
            closeStream()
            if let context, pulseFunctions.pa_context_get_state!(context) == PA_CONTEXT_READY {
                setStatus(.waitingForDevice(reason: "the audio device went away"))
                chooseDevice()
            }
        }
    }

    /// Fragments of `fragmentDuration` rounded to whole 256-frame buffers, or one buffer for nil.
    func bufferAttributes(fragmentDuration: Double?, sampleRate: Int) -> pa_buffer_attr {
        let chunk = AudioBuffer.frameCapacity
        let fragmentFrames = fragmentDuration.map {
            max(chunk, Int(($0 * Double(sampleRate) / Double(chunk)).rounded()) * chunk)
        } ?? chunk
        // One frame more than wanted: PulseAudio turns the size into whole microseconds and back,
        // rounding down twice, so asking for exactly 256 frames delivers 255. Every 256-frame
        // buffer then waited for one frame of the next delivery, 5 ms after the rest had arrived.
        // Asking for 257 delivers 256 (a server that keeps 257 leaves a frame over: no wait).
        return pa_buffer_attr(maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max,
                              minreq: UInt32.max, fragsize: UInt32((fragmentFrames + 1) * frameBytes))
    }

    /// In long digital silence, asks for larger deliveries; at the first sound, for the usual ones.
    private func noteSilence(_ samples: UnsafeBufferPointer<Float>?, frames: Int, stream: OpaquePointer) {
        guard relaxesInSilence, let device = streamDevice else { return }
        let silent = samples.map { $0.allSatisfy { $0 == 0 } } ?? true
        if silent {
            silentFrames += frames
            guard !isRelaxed, Double(silentFrames) >= Self.relaxAfter * Double(device.sampleRate) else { return }
            isRelaxed = true
        } else {
            silentFrames = 0
            guard isRelaxed else { return }
            isRelaxed = false
        }
        var attributes = bufferAttributes(fragmentDuration: isRelaxed ? Self.relaxedFragmentDuration : fragmentDuration,
                                          sampleRate: device.sampleRate)
        if let operation = pulseFunctions.pa_stream_set_buffer_attr!(stream, &attributes, nil, nil) { pulseFunctions.pa_operation_unref!(operation) }
    }

    /// Drains everything readable: peek, re-chunk into 256-frame buffers, drop. No allocation.
    private func readAvailable(from stream: OpaquePointer) {
        guard stream == self.stream else { return }
        while pulseFunctions.pa_stream_readable_size!(stream) > 0 {
            var data: UnsafeRawPointer?
            var byteCount = 0
            guard pulseFunctions.pa_stream_peek!(stream, &data, &byteCount) >= 0, byteCount > 0 else { return }
            let frames = byteCount / frameBytes
            let endFrame = rechunker.framesReceived + Int64(frames)
            let delivered = deliveryClock.stamp(arrival: HostClock.now(), endFrame: endFrame, sampleRate: rechunker.pendingSampleRate)
            // Stamped no later than the server's timing says the frames are heard (see noteTiming).
            let heard = heardClock.heardTime(ofPosition: endFrame, sampleRate: rechunker.pendingSampleRate) ?? .infinity
            let now = min(delivered, heard)
            if let data {
                let samples = UnsafeBufferPointer(start: data.assumingMemoryBound(to: Float.self),
                                                  count: frames * rechunker.channelCount)
                rechunker.append(samples, deliveredAt: now) { handOver.add($0) }
                noteSilence(samples, frames: frames, stream: stream)
            } else {
                // A hole: the server lost data. Keep time straight with silence.
                rechunker.appendSilence(frames: frames, deliveredAt: now) { handOver.add($0) }
                noteSilence(nil, frames: frames, stream: stream)
            }
            pulseFunctions.pa_stream_drop!(stream)
        }
        // Everything this wake-up read goes to the reader at once: one wake-up of its own.
        handOver.send()
        if measuresSinkLatency { noteTiming(of: stream) }
    }

    /// The heard clock, from the server's timing snapshots (asked for every 0.1 s): each says
    /// where the stream's frames are heard (HeardClock). Deliveries are stamped on the sample
    /// clock (DeliveryClock); the sink latency published is what separates those stamps from the
    /// heard times, so that stamp + latency = heard, as for PipeWire's own tap. It moves only with the clocks' estimates, not with the sink's
    /// momentary fill (a null sink's reads anywhere from 0.3 to 10 ms).
    private func noteTiming(of stream: OpaquePointer) {
        let now = HostClock.now()
        // A doubting clock asks at every delivery (a round trip each) until it knows.
        if now - lastTimingRequest >= (heardClock.isDoubting ? 0 : pa_timing_info.refreshInterval) {
            lastTimingRequest = now
            if let operation = pulseFunctions.pa_stream_update_timing_info!(stream, nil, nil) { pulseFunctions.pa_operation_unref!(operation) }
        }
        guard let timing = pulseFunctions.pa_stream_get_timing_info!(stream) else { return }
        let info = timing.pointee
        guard info.sink_usec < 10_000_000 else { return }
        let sampleRate = rechunker.pendingSampleRate
        if info.synchronized_clocks != 0, info.write_index_corrupt == 0,
           lastSnapshot.map({ $0.tv_sec != info.timestamp.tv_sec || $0.tv_usec != info.timestamp.tv_usec }) ?? true {
            lastSnapshot = info.timestamp
            heardClock.note(time: info.hostTime, written: info.write_index / Int64(frameBytes),
                            unqueued: Double(info.source_usec) / 1e6, outputLatency: Double(info.sink_usec) / 1e6,
                            sampleRate: sampleRate)
        }
        if let heard = heardClock.offset, let delivered = deliveryClock.floor {
            sinkLatencyMicroseconds.store(UInt64(max(0, heard - delivered) * 1e6), ordering: .relaxed)
        } else {
            sinkLatencyMicroseconds.store(info.sink_usec, ordering: .relaxed)
        }
    }

    /// Disconnects and frees the stream; its callbacks are cleared first so none arrive later.
    func closeStream() {
        guard let stream else { return }
        pulseFunctions.pa_stream_set_read_callback!(stream, nil, nil)
        pulseFunctions.pa_stream_set_state_callback!(stream, nil, nil)
        pulseFunctions.pa_stream_disconnect!(stream)
        pulseFunctions.pa_stream_unref!(stream)
        self.stream = nil
        streamDevice = nil
    }
}
