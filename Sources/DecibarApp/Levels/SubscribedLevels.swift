import DecibarCore

/// `levels` through a running daemon: subscribes to its one tap and prints the lines it sends,
/// exactly as the standalone command would print them.
public struct SubscribedLevels {
    let client: ControlConnectionClient
    let kind: Subscription.Kind
    let rate: Double
    let bands: Int
    let duration: Double?

    public init(client: ControlConnectionClient, settings: LevelsSettings, rate: Double, duration: Double?) {
        self.client = client
        switch settings.mode {
        case .levels: kind = .levels
        case .spectrum: kind = .spectrum
        case .loudness: kind = .loudness
        }
        self.rate = rate
        bands = settings.bands
        self.duration = duration
    }

    public func run() throws {
        let reply: ControlConnectionClient.Reply
        do {
            reply = try client.request([.string("subscribe"), .string(kind.rawValue), .number(rate), .number(Double(bands))])
        } catch {
            throw CommandFailure(message: "the daemon did not take the subscription: \(DaemonClient.describe(error))")
        }
        guard reply.succeeded else { throw CommandFailure(message: "the daemon refused the subscription: \(reply.message ?? reply.error)") }
        let end = duration.map { MonotonicClock.now() + $0 }
        let shutdown = Array(ControlMessage.event("shutdown").dropLast())
        while end.map({ MonotonicClock.now() < $0 }) ?? true {
            let line: [UInt8]
            do {
                // No audio (a suspended sink) sends nothing: --duration still ends on time.
                guard let next = try client.nextLine(until: end) else { return }
                line = next
            } catch {
                throw CommandFailure(message: "lost the decibar daemon: \(DaemonClient.describe(error))")
            }
            if let data = ControlMessage.lineData(of: line, event: kind.rawValue) {
                writeBytes(data)
            } else if line == shutdown {
                throw CommandFailure(message: "the decibar daemon stopped")
            }
        }
    }
}
