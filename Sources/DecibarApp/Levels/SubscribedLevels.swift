import DecibarCore

/// `levels` through a running daemon: subscribes to its one tap and prints the lines it sends,
/// exactly as the standalone command would print them.
public struct SubscribedLevels {
    let client: ControlConnectionClient
    let kind: Subscription.Kind
    let rate: Double
    let bands: Int
    let duration: Double?
    let settings: LevelsSettings

    public init(client: ControlConnectionClient, settings: LevelsSettings, rate: Double, duration: Double?) {
        self.client = client
        switch settings.mode {
        case .levels: kind = .levels
        case .spectrum: kind = .spectrum
        case .loudness: kind = .loudness
        case .beats: kind = .beats
        case .stereo: kind = .stereo
        }
        self.rate = rate
        bands = settings.bands
        self.duration = duration
        self.settings = settings
    }

    private func subscribe(_ kind: Subscription.Kind) throws {
        let reply: ControlConnectionClient.Reply
        do {
            reply = try client.request([.string("subscribe"), .string(kind.rawValue), .number(rate), .number(Double(bands))])
        } catch {
            throw CommandFailure(message: "the daemon did not take the subscription: \(DaemonClient.describe(error))")
        }
        guard reply.succeeded else { throw CommandFailure(message: "the daemon refused the subscription: \(reply.message ?? reply.error)") }
    }

    /// Hands each event line to `body` until the duration ends, the daemon stops or the connection is lost.
    private func readEvents(_ body: ([UInt8]) -> Void) throws {
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
            if line == shutdown { throw CommandFailure(message: "the decibar daemon stopped") }
            body(line)
        }
    }

    /// Status-bar lines: the daemon's spectrum and levels events, joined by their time.
    private func runFeed(_ format: StatusBarFeed.Format) throws {
        try subscribe(.levels)
        try subscribe(.spectrum)
        var feed = StatusBarFeed(format: format, barCount: bands, asciiMax: settings.asciiMax)
        var layout = (bands: bands, channels: 1)
        var levels: (rms: [Float], peak: [Float]) = ([], [])
        func floats(_ value: JSONValue?) -> [Float] {
            guard case .array(let items)? = value else { return [] }
            return items.map { Float($0.number ?? Double(Decibels.floor)) }
        }
        try readEvents { line in
            if let data = ControlMessage.lineData(of: line, event: Subscription.Kind.levels.rawValue) {
                guard case .object(let members)? = JSONValue(parsing: data.dropLast()) else { return }
                levels = (floats(members["rms_db"]), floats(members["peak_db"]))
            } else if let data = ControlMessage.lineData(of: line, event: Subscription.Kind.spectrum.rawValue) {
                guard case .object(let members)? = JSONValue(parsing: data.dropLast()) else { return }
                if let count = members["bands"]?.number, let channels = members["channels"]?.number {
                    // The header: how the band levels that follow are laid out.
                    layout = (max(1, Int(count)), max(1, min(2, Int(channels))))
                    return
                }
                let flat = floats(members["bands_db"])
                guard let time = members["t"]?.number, flat.count >= layout.bands, !levels.rms.isEmpty else { return }
                let channels = min(layout.channels, flat.count / layout.bands)
                let bandLevels = (0 ..< channels).map { Array(flat[$0 * layout.bands ..< ($0 + 1) * layout.bands]) }
                if let text = feed.line(time: time, bands: bandLevels, rmsDB: levels.rms, peakDB: levels.peak) { writeBytes(text) }
            }
        }
    }

    public func run() throws {
        if let format = settings.feed {
            try runFeed(format)
            return
        }
        try subscribe(kind)
        let kind = self.kind
        try readEvents { line in
            if let data = ControlMessage.lineData(of: line, event: kind.rawValue) { writeBytes(data) }
        }
    }
}
