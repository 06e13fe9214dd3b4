import DecibarAudio

/// Buffers are dropped only when the reader falls far behind; say so when it happened.
func reportDroppedBuffers(_ tap: any LiveTap) {
    let dropped = tap.droppedBufferCount
    if dropped > 0 {
        writeError("\(dropped) of \(dropped + tap.deliveredBufferCount) audio buffers were dropped because the reader fell behind")
    }
}

/// Reports each change of tap status on stderr, once.
struct StatusReporter {
    private var last: TapStatus?

    mutating func report(_ status: TapStatus) {
        // Retries pass through `connecting` each time and may give another reason ("terminated",
        // then "refused"): one line per outage is enough.
        if case .waitingForServer = status, case .waitingForServer = last { return }
        guard status != .connecting, status != last else { return }
        last = status
        switch status {
        case .connecting: break
        case .capturing(let device):
            writeError("listening to \(device.description) (\(device.name), \(device.sampleRate) Hz, \(device.channelCount) ch)")
        case .waitingForServer(let reason):
            writeError("waiting for audio server (\(reason))")
        case .waitingForDevice(let reason):
            writeError("waiting for a device: \(reason)")
        case .waitingForApp(let text):
            writeError(text)
        }
    }
}
