import CPulse

// Choosing the source: the default sink's monitor (never the default source, the microphone),
// or the source the user named.
extension PulseMonitorTap {
    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Asks the server which device to tap; the answer arrives in a callback.
    func chooseDevice() {
        guard let context else { return }
        let operation: OpaquePointer?
        switch target {
        case .apps:
            followApps()
            return
        case .defaultSinkMonitor:
            operation = pulseFunctions.pa_context_get_server_info!(context, { context, info, userData in
                guard let userData else { return }
                let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
                guard context == tap.context else { return }
                let sinkName = info?.pointee.default_sink_name.map { String(cString: $0) } ?? ""
                tap.lookUpSink(named: sinkName)
            }, userData)
        case .named(let name):
            operation = pulseFunctions.pa_context_get_source_info_by_name!(context, name, { context, info, endOfList, userData in
                guard let userData else { return }
                let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
                guard context == tap.context else { return }
                if let info {
                    tap.openStream(on: TapDevice(source: info.pointee))
                } else if endOfList < 0, case .named(let name) = tap.target {
                    // No source by that name: perhaps it names a sink, whose monitor we take.
                    tap.lookUpSink(named: name)
                }
            }, userData)
        }
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }

    private func lookUpSink(named sinkName: String) {
        guard let context else { return }
        guard !sinkName.isEmpty else {
            closeStream()
            setStatus(.waitingForDevice(reason: "no output device"))
            return
        }
        let operation = pulseFunctions.pa_context_get_sink_info_by_name!(context, sinkName, { context, info, endOfList, userData in
            guard let userData else { return }
            let tap = Unmanaged<PulseMonitorTap>.fromOpaque(userData).takeUnretainedValue()
            guard context == tap.context else { return }
            if let info {
                tap.openStream(on: TapDevice(monitorOf: info.pointee))
            } else if endOfList < 0 {
                tap.closeStream()
                switch tap.target {
                case .named(let name): tap.setStatus(.waitingForDevice(reason: "no source or sink named \(name)"))
                case .defaultSinkMonitor, .apps: tap.setStatus(.waitingForDevice(reason: "default output device not found"))
                }
            }
        }, userData)
        if let operation { pulseFunctions.pa_operation_unref!(operation) }
    }
}

extension TapDevice {
    init(source info: pa_source_info) {
        self.init(name: String(cString: info.name),
                  description: info.description.map { String(cString: $0) } ?? String(cString: info.name),
                  sampleRate: Int(info.sample_spec.rate),
                  channelCount: Int(info.sample_spec.channels))
        channelPositions = PulseChannelMap.positions(of: info.channel_map)
    }

    init(monitorOf sink: pa_sink_info) {
        let sinkDescription = sink.description.map { String(cString: $0) } ?? String(cString: sink.name)
        self.init(name: String(cString: sink.monitor_source_name),
                  description: "Monitor of \(sinkDescription)",
                  sampleRate: Int(sink.sample_spec.rate),
                  channelCount: Int(sink.sample_spec.channels))
        channelPositions = PulseChannelMap.positions(of: sink.channel_map)
        sinkName = String(cString: sink.name)
    }
}
