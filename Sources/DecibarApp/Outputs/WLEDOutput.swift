import DecibarCore

/// WLED Audio Sync V2 to a controller or to WLED's multicast group: 50 packets a second (WLED's
/// own senders send 40 to 50), scaled as a controller's microphone would be (see `AudioSync`).
final class WLEDOutput: Output {
    let target: OutputTarget
    let needs: OutputNeeds = .channels
    private let destination: DatagramTarget
    private var sync = AudioSync()
    private var bytes = [UInt8](repeating: 0, count: AudioSyncPacket.size)

    /// Packets a second.
    static let rate = 50.0

    init(target: OutputTarget, notice: @escaping @Sendable (String) -> Void) {
        self.target = target
        destination = DatagramTarget(name: target.url, host: target.host ?? OutputTarget.wledGroup, port: target.port, notice: notice)
    }

    func prepare(_ lane: OutputLane, now: Double) {
        let reading = lane.reading
        sync.advance(peakDB: reading.frameCount > 0 ? reading.combinedPeakDB : nil, channelDB: lane.channelDB,
                     strongest: lane.strongest, beat: lane.hitHeard, dt: lane.dt)
        sync.packet.encode(into: &bytes)
    }

    func emit() { destination.send(bytes) }

    var statusLine: @Sendable () -> String {
        let (target, destination) = (target, destination)
        return { "\(target.url): WLED audio sync to \(destination.address ?? target.host ?? OutputTarget.wledGroup), \(destination.sent.load(ordering: .relaxed)) packets sent" }
    }
}
