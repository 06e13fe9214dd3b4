import DecibarCore
import DecibarNetwork

/// OSC over UDP for lighting and VJ software, at the display rate: `PREFIX/levels ffff` (RMS left,
/// right, peak left, right in dBFS), `PREFIX/bands` (WLED's 16 channels in dB),
/// `PREFIX/loudness fff` (momentary, short-term, integrated LUFS; -160 until measured) and, at
/// each hit (WLED's samplePeak: a burst until the beat is followed, then each beat), `PREFIX/beat f`
/// (the tempo in BPM, 0 until the beat is followed). Encoded by liblo, sent without waiting.
final class OSCOutput: Output {
    let target: OutputTarget
    let needs: OutputNeeds = [.channels, .loudness]
    private let destination: DatagramTarget
    private let levels: OSCMessage
    private let bands: OSCMessage
    private let loudness: OSCMessage
    private let beat: OSCMessage
    private var values = [Float](repeating: 0, count: AudioSyncPacket.channelCount)
    /// The messages `prepare` encoded, sent by `emit`.
    private var pending: [[UInt8]] = []

    /// nil when liblo cannot be loaded (`OSCMessage.libraryFailure` says why).
    init?(target: OutputTarget, notice: @escaping @Sendable (String) -> Void) {
        let prefix = target.prefix
        guard let levels = OSCMessage(address: prefix + "/levels", count: 4),
              let bands = OSCMessage(address: prefix + "/bands", count: AudioSyncPacket.channelCount),
              let loudness = OSCMessage(address: prefix + "/loudness", count: 3),
              let beat = OSCMessage(address: prefix + "/beat", count: 1) else { return nil }
        self.target = target
        self.levels = levels
        self.bands = bands
        self.loudness = loudness
        self.beat = beat
        destination = DatagramTarget(name: target.url, host: target.host ?? "", port: target.port, notice: notice)
    }

    func prepare(_ lane: OutputLane, now: Double) {
        pending.removeAll(keepingCapacity: true)
        let reading = lane.reading
        if reading.frameCount > 0 {
            let right = Swift.min(1, reading.channelCount - 1)
            send(levels, [reading.rmsDB(channel: 0), reading.rmsDB(channel: right), reading.peakDB(channel: 0), reading.peakDB(channel: right)])
        }
        for index in values.indices { values[index] = Swift.max(SpectrumBands.floorDB, lane.channelDB[index]) }
        send(bands, values)
        let floor = Double(Decibels.floor)
        let measured = lane.loudness
        send(loudness, [Float(measured?.momentaryLUFS ?? floor), Float(measured?.shortTermLUFS ?? floor), Float(measured?.integratedLUFS ?? floor)])
        if lane.hitHeard { send(beat, [Float(lane.bpm)]) }
    }

    func emit() {
        for message in pending { destination.send(message) }
    }

    /// Encodes `message` with `floats` for the next `emit`.
    private func send(_ message: OSCMessage, _ floats: [Float]) {
        floats.withUnsafeBufferPointer { message.encode($0) }
        pending.append(message.bytes)
    }

    var statusLine: @Sendable () -> String {
        let (target, destination) = (target, destination)
        return { "\(target.url): OSC under \(target.prefix) to \(destination.address ?? target.host ?? "?"), \(destination.sent.load(ordering: .relaxed)) messages sent" }
    }
}
