import DecibarCore

/// The bars (or the spectrum) on a strip of RGB LEDs over DDP, at the display rate; dark in silence.
final class DDPOutput: Output {
    let target: OutputTarget
    let needs: OutputNeeds = []
    private let destination: DatagramTarget
    private var strip: LightStrip
    private var packets: DDPPacketizer

    init(target: OutputTarget, notice: @escaping @Sendable (String) -> Void) {
        self.target = target
        strip = LightStrip(pixelCount: target.pixels)
        packets = DDPPacketizer(pixelCount: target.pixels)
        destination = DatagramTarget(name: target.url, host: target.host ?? "", port: target.port, notice: notice)
    }

    func prepare(_ lane: OutputLane, now: Double) {
        strip.paint(lane.bars.field.values, theme: lane.theme)
        packets.frame(strip.bytes)
    }

    func emit() {
        for packet in packets.packets { destination.send(packet) }
    }

    var statusLine: @Sendable () -> String {
        let (target, destination) = (target, destination)
        return { "\(target.url): DDP, \(target.pixels) pixels to \(destination.address ?? target.host ?? "?"), \(destination.sent.load(ordering: .relaxed)) packets sent" }
    }
}
