import CPipeWire
import DecibarCore

// What the registry says, and the links that follow from it: all on PipeWire's loop thread.
extension PipeWireTap {
    static var callbacks: decibar_pw_callbacks {
        decibar_pw_callbacks(
            global: { user, id, type, properties, count in
                guard let user, let type else { return }
                var values: [String: String] = [:]
                for item in UnsafeBufferPointer(start: properties, count: Int(count)) {
                    if let key = item.key, let value = item.value { values[String(cString: key)] = String(cString: value) }
                }
                PipeWireTap.tap(user).globalAdded(id: id, type: String(cString: type), properties: values)
            },
            global_removed: { user, id in
                guard let user else { return }
                PipeWireTap.tap(user).globalRemoved(id: id)
            },
            default_changed: { user, key, value in
                guard let user else { return }
                PipeWireTap.tap(user).defaultChanged(key: key.map { String(cString: $0) }, value: value.map { String(cString: $0) })
            },
            synced: { user, _ in
                guard let user else { return }
                PipeWireTap.tap(user).initialGraphKnown()
            },
            error: { user, fatal, message in
                // Not fatal: something asked for was refused (a link to a port that just went); the
                // registry says what changed.
                guard let user, fatal != 0 else { return }
                PipeWireTap.tap(user).serverLost(reason: "the PipeWire server went away")
            },
            state: { user, state, error in
                guard let user else { return }
                PipeWireTap.tap(user).captureStateChanged(state, error: error.map { String(cString: $0) })
            },
            format: { user, rate, channels in
                guard let user else { return }
                PipeWireTap.tap(user).formatChanged(rate: Int(rate), channels: Int(channels))
            },
            samples: { user, samples, frames, channels, rate, now, delay in
                guard let user, let samples else { return 0 }
                return PipeWireTap.tap(user).received(samples, frames: Int(frames), channels: Int(channels), rate: Int(rate),
                                                      cycleTime: now, deviceDelay: delay)
            },
            data_thread: { user in
                guard let user else { return }
                PipeWireTap.tap(user).priority?.raiseCurrentThread()
            })
    }

    private static func tap(_ user: UnsafeMutableRawPointer) -> PipeWireTap {
        Unmanaged<PipeWireTap>.fromOpaque(user).takeUnretainedValue()
    }

    func globalAdded(id: UInt32, type: String, properties: [String: String]) {
        guard graph.add(id: id, type: type, properties: properties) else { return }
        if synced { route() }
    }

    func globalRemoved(id: UInt32) {
        // A link whose port went is gone with it on the server; its proxy here is freed too.
        if let client {
            for (link, handle) in links where link.output == id || link.input == id {
                decibar_pw_client_unlink(client, handle)
                links[link] = nil
            }
        }
        guard graph.remove(id: id) else { return }
        if synced { route() }
    }

    func defaultChanged(key: String?, value: String?) {
        guard key == nil || key == "default.audio.sink" else { return }
        graph.defaultSinkName = AudioGraph.name(inMetadataValue: value)
        if synced { route() }
    }

    func initialGraphKnown() {
        retryDelay = Self.initialRetryDelay
        synced = true
        route()
    }

    func serverLost(reason: String) {
        let generation = self.generation
        setStatus(.waitingForServer(reason: reason))
        supervisor.async { self.scheduleRetry(reason: reason, generation: generation) }
    }

    /// Opens, relinks or closes the capture for what the graph now holds.
    func route() {
        guard client != nil, !isStopped else { return }
        switch target {
        case .defaultSinkMonitor: routeSource(named: nil)
        case .named(let name): routeSource(named: name)
        case .apps(let selection, let output): routeApps(selection, output: output)
        }
    }

    private func routeSource(named name: String?) {
        guard let found = graph.source(named: name) else {
            closeCapture()
            if let name {
                setStatus(.waitingForDevice(reason: "no source or sink named \(name)"))
            } else {
                setStatus(.waitingForDevice(reason: graph.defaultSinkName == nil ? "no output device" : "default output device not found"))
            }
            return
        }
        guard openCapture(positions: found.positions, for: found.name) else { return }
        source = found
        isHeardOnSink.store(found.node.mediaClass.hasPrefix("Audio/Sink"), ordering: .relaxed)
        guard let node = captureNode, node != UInt32.max else { return }
        // Not passive: like a recording, the tap keeps the device running, so silence arrives as silence.
        relink(to: AudioGraph.links(from: found.ports, to: graph.inputPorts(of: node)), passive: false)
        announceCapture()
    }

    /// Makes sure the capture node is open with these positions (a device of more channels than a
    /// buffer carries is heard as its first eight); false when it cannot be.
    func openCapture(positions wanted: [String], for label: String) -> Bool {
        guard let client else { return false }
        let positions = Array(wanted.prefix(AudioBuffer.maxChannels))
        if captureNode == nil || positions != capturePositions {
            closeCapture()
            let opened = decibar_pw_capture_open(client, Self.nodeName, UInt32(positions.count), positions.joined(separator: ","), UInt32(quantum))
            guard opened == 0 else {
                setStatus(.waitingForDevice(reason: "cannot record from \(label) (error \(opened))"))
                return false
            }
            capturePositions = positions
            captureNode = UInt32.max
        }
        if captureNode == UInt32.max {
            let id = decibar_pw_capture_node_id(client)
            if id != UInt32.max { captureNode = id }
        }
        return true
    }

    /// Makes the links the tap holds exactly `wanted`.
    func relink(to wanted: [AudioGraph.Link], passive: Bool) {
        guard let client else { return }
        let wanted = Set(wanted)
        for (link, handle) in links where !wanted.contains(link) {
            decibar_pw_client_unlink(client, handle)
            links[link] = nil
        }
        for link in wanted where links[link] == nil {
            if let handle = decibar_pw_client_link(client, link.output, link.input, passive ? 1 : 0) { links[link] = handle }
        }
    }

    func closeCapture() {
        guard let client, captureNode != nil else { return }
        for handle in links.values { decibar_pw_client_unlink(client, handle) }
        links.removeAll()
        decibar_pw_capture_close(client)
        captureNode = nil
        capturePositions = []
        format = nil
        source = nil
        heardStreams = []
    }

    /// Says what is heard once samples can flow: the source is linked and the format known.
    func announceCapture() {
        if case .apps(let selection, _) = target {
            announceApps(selection)
            return
        }
        guard let source, let format, !links.isEmpty else { return }
        var device = TapDevice(name: source.name, description: source.description, sampleRate: format.rate, channelCount: format.channels)
        device.sinkName = source.node.mediaClass.hasPrefix("Audio/Sink") ? source.node.name : nil
        setStatus(.capturing(device))
    }

    func captureStateChanged(_ state: Int32, error: String?) {
        if state == DECIBAR_PW_STATE_ERROR.rawValue {
            let reason = error ?? "the capture stopped"
            closeCapture()
            setStatus(.waitingForDevice(reason: "cannot record: \(reason)"))
        } else if captureNode == UInt32.max, let client {
            let id = decibar_pw_capture_node_id(client)
            if id != UInt32.max {
                captureNode = id
                route()
            }
        }
    }

    func formatChanged(rate: Int, channels: Int) {
        guard channels >= 1, channels <= AudioBuffer.maxChannels, rate > 0 else { return }
        format = (rate, channels)
        announceCapture()
    }

    /// One cycle's samples, on PipeWire's data thread: re-chunked into 256-frame buffers, handed
    /// over at once. No allocation but a new chunker when the rate or channels change.
    ///
    /// Stamped by the graph's clock, not by when this thread ran: `cycleTime` (monotonic ns) is
    /// when the driver started the cycle, which is when the sink takes these samples, and the
    /// sink's device still holds `deviceDelay` frames ahead of them: that is the sink latency.
    ///
    /// Returns the frames a cycle to ask for from now on, or 0 to leave it.
    func received(_ samples: UnsafePointer<Float>, frames: Int, channels: Int, rate: Int, cycleTime: Int64, deviceDelay: Int64) -> UInt32 {
        guard channels >= 1, channels <= AudioBuffer.maxChannels, rate > 0 else { return 0 }
        if rechunker.channelCount != channels || rechunker.pendingSampleRate != rate {
            rechunker = Rechunker(channelCount: channels, sampleRate: rate)
        }
        // The time the cycle's last frame is taken by the sink (its first plus the cycle's length).
        let end = cycleTime > 0 ? Double(cycleTime) / 1e9 + Double(frames) / Double(rate) : HostClock.now()
        if isHeardOnSink.load(ordering: .relaxed), deviceDelay >= 0, deviceDelay < Int64(rate) * 10 {
            sinkLatencyNanoseconds.store(deviceDelay * 1_000_000_000 / Int64(rate), ordering: .relaxed)
        } else {
            sinkLatencyNanoseconds.store(0, ordering: .relaxed)
        }
        rechunker.append(UnsafeBufferPointer(start: samples, count: frames * channels), deliveredAt: end) { handOver.add($0) }
        // The reader wakes once per fragment asked for (`quantum`), as libpulse's fragments wake
        // it, not once per graph cycle: a 50 ms reader on a 5 ms graph wakes 20 times a second.
        // Sent now when waiting for the next cycle would hold more than a fragment.
        framesSinceDelivery += frames
        if framesSinceDelivery + frames > quantum {
            framesSinceDelivery = 0
            handOver.send()
        }
        return relaxesInSilence ? quantumAfter(UnsafeBufferPointer(start: samples, count: frames * channels), rate: rate) : 0
    }

    /// After a second of digital silence the node asks for 100 ms cycles (a window at rest, or an
    /// app that does not play, need not wake everything 190 times a second); the first sound asks
    /// for the tap's own again. On the data thread.
    private func quantumAfter(_ samples: UnsafeBufferPointer<Float>, rate: Int) -> UInt32 {
        if samples.allSatisfy({ $0 == 0 }) {
            silentFrames += samples.count / max(1, rechunker.channelCount)
            guard !isRelaxed, Double(silentFrames) >= Self.relaxAfter * Double(rate) else { return 0 }
            isRelaxed = true
            return UInt32(Self.relaxedQuantum)
        }
        silentFrames = 0
        guard isRelaxed else { return 0 }
        isRelaxed = false
        return UInt32(quantum)
    }
}
