import CPulse

/// Reads the list of sinks and sources from the sound server once.
public enum PulseDirectory {
    /// Connects, lists, disconnects. Throws a one-line error when no server answers within `timeout`.
    public static func list(timeout: Double = 5) throws(TapError) -> AudioDeviceList {
        guard let query = DirectoryQuery() else { throw TapError(pulseLibrary.failure ?? "cannot start the PulseAudio client thread") }
        defer { query.close() }
        return try query.run(timeout: timeout)
    }
}

/// One blocking round trip: the caller waits on the mainloop while callbacks fill in the answer.
// Unchecked: filled by callbacks on the mainloop thread while the caller waits on that same
// mainloop's lock, and read after; the lock orders both.
private final class DirectoryQuery: @unchecked Sendable {
    let mainloop: PulseMainloop
    var context: OpaquePointer?
    var timer: OpaquePointer?
    var failure: String?
    var isReady = false
    var pendingReplies = 0
    /// Playback streams with their sink's index, named once every sink is known.
    var playbacks: [(AudioDeviceList.Playback, UInt32)] = []
    var sinkNames: [UInt32: String] = [:]
    var list = AudioDeviceList(serverName: "", defaultSinkName: "", defaultSourceName: "", sinks: [], sources: [])

    init?() {
        guard let mainloop = PulseMainloop() else { return nil }
        self.mainloop = mainloop
    }

    private var userData: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func from(_ userData: UnsafeMutableRawPointer?) -> DirectoryQuery {
        Unmanaged<DirectoryQuery>.fromOpaque(userData!).takeUnretainedValue()
    }

    func run(timeout: Double) throws(TapError) -> AudioDeviceList {
        let outcome: Result<AudioDeviceList, TapError> = mainloop.locked {
            timer = mainloop.scheduleTimer(after: timeout, userData: userData) { _, _, _, userData in
                let query = DirectoryQuery.from(userData)
                query.failure = query.failure ?? "the audio server did not answer"
                query.mainloop.signal()
            }
            guard let context = mainloop.makeContext() else {
                return .failure(TapError("cannot create a PulseAudio context"))
            }
            self.context = context
            pulseFunctions.pa_context_set_state_callback!(context, { context, userData in
                let query = DirectoryQuery.from(userData)
                let state = pulseFunctions.pa_context_get_state!(context)
                if state == PA_CONTEXT_READY {
                    query.isReady = true
                } else if state.isFinished {
                    query.failure = pulseErrorText(pulseFunctions.pa_context_errno!(context))
                }
                query.mainloop.signal()
            }, userData)
            let turn = FileModeMask.takeTurn()
            guard pulseFunctions.pa_context_connect!(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
                return .failure(TapError("no audio server: \(pulseErrorText(pulseFunctions.pa_context_errno!(context)))"))
            }
            while !isReady && failure == nil { mainloop.wait() }
            turn.end()
            if let failure { return .failure(TapError("no audio server: \(failure)")) }

            requestEverything(context)
            while pendingReplies > 0 && failure == nil { mainloop.wait() }
            if let failure { return .failure(TapError("cannot list devices: \(failure)")) }
            list.playbacks = playbacks.map { playback, sink in
                var named = playback
                named.sinkName = sinkNames[sink] ?? String(sink)
                return named
            }
            return .success(list)
        }
        return try outcome.get()
    }

    private func requestEverything(_ context: OpaquePointer) {
        pendingReplies = 4
        let server = pulseFunctions.pa_context_get_server_info!(context, { _, info, userData in
            let query = DirectoryQuery.from(userData)
            if let info = info?.pointee {
                query.list.serverName = info.server_name.map { String(cString: $0) } ?? ""
                query.list.defaultSinkName = info.default_sink_name.map { String(cString: $0) } ?? ""
                query.list.defaultSourceName = info.default_source_name.map { String(cString: $0) } ?? ""
            }
            query.replyFinished()
        }, userData)
        let sinks = pulseFunctions.pa_context_get_sink_info_list!(context, { _, info, endOfList, userData in
            let query = DirectoryQuery.from(userData)
            if let info = info?.pointee {
                query.sinkNames[info.index] = String(cString: info.name)
                query.list.sinks.append(.init(
                    name: String(cString: info.name),
                    description: info.description.map { String(cString: $0) } ?? "",
                    monitorSourceName: info.monitor_source_name.map { String(cString: $0) } ?? "",
                    sampleRate: Int(info.sample_spec.rate), channelCount: Int(info.sample_spec.channels)))
            }
            if endOfList != 0 { query.replyFinished() }
        }, userData)
        let sources = pulseFunctions.pa_context_get_source_info_list!(context, { _, info, endOfList, userData in
            let query = DirectoryQuery.from(userData)
            if let info = info?.pointee {
                let isMonitor = info.monitor_of_sink != UInt32.max
                query.list.sources.append(.init(
                    name: String(cString: info.name),
                    description: info.description.map { String(cString: $0) } ?? "",
                    monitoredSinkName: isMonitor ? info.monitor_of_sink_name.map { String(cString: $0) } : nil,
                    sampleRate: Int(info.sample_spec.rate), channelCount: Int(info.sample_spec.channels)))
            }
            if endOfList != 0 { query.replyFinished() }
        }, userData)
        let playbacks = pulseFunctions.pa_context_get_sink_input_info_list!(context, { _, info, endOfList, userData in
            let query = DirectoryQuery.from(userData)
            if let info = info?.pointee {
                func property(_ key: String) -> String? {
                    info.proplist.flatMap { pulseFunctions.pa_proplist_gets!($0, key) }.map { String(cString: $0) }
                }
                query.playbacks.append((.init(index: Int(info.index), appName: property(PA_PROP_APPLICATION_NAME),
                                              binary: property(PA_PROP_APPLICATION_PROCESS_BINARY),
                                              processID: property(PA_PROP_APPLICATION_PROCESS_ID).flatMap { Int($0) },
                                              sinkName: "", isPaused: info.corked != 0), info.sink))
            }
            if endOfList != 0 { query.replyFinished() }
        }, userData)
        for operation in [server, sinks, sources, playbacks] {
            if let operation { pulseFunctions.pa_operation_unref!(operation) } else { replyFinished() }
        }
    }

    private func replyFinished() {
        pendingReplies -= 1
        mainloop.signal()
    }

    func close() {
        mainloop.locked {
            if let timer { mainloop.cancelTimer(timer) }
            timer = nil
            if let context { releaseContext(context) }
            context = nil
        }
        mainloop.shutDown()
    }
}
