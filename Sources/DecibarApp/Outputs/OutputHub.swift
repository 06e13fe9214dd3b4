import DecibarAudio
import DecibarCore
import DecibarNetwork
import Foundation
import Synchronization

/// Sends the analysis to the outputs of `--send` (and `outputs.send`), each at the moment its audio
/// is heard: a thread of its own wakes at each lane's next tick, releases what is heard by then and
/// hands it to the lane's outputs. Buffers come in from the feed pump (`add`, any thread) and wait
/// in each lane's feed, as they wait in the window's; nothing here blocks the pump or the window:
/// datagrams are sent without waiting, and a page's slow reader loses frames.
public final class OutputHub: Sendable {
    public let targets: [OutputTarget]
    /// Whether an output needs beats: WLED and OSC mark hits (beats once followed), and DDP and
    /// the page draw the bars' beat accent when the window's look has it.
    let needsBeats: Bool
    private let feeds: [AudioFeed]
    private let destinations: [(url: String, summary: @Sendable () -> String)]
    /// Set once to end the sending thread.
    private final class Flag: Sendable {
        let value = Atomic<Bool>(false)
    }
    private let stopped = Flag()
    /// Where the audio comes from now, and how late it is heard after its stamps.
    private let current: Mutex<Hearing>

    /// In a class of its own: a closure kept in a Mutex's generic storage inside a tuple is
    /// wrapped in one more thunk at every access (each `withLock` reabstracts it out and back),
    /// so calling it grew slower by the minute.
    private final class Hearing: Sendable {
        let source: Source
        let heardDelay: @Sendable () -> Double
        init(_ source: Source, _ heardDelay: @escaping @Sendable () -> Double) {
            self.source = source
            self.heardDelay = heardDelay
        }
    }

    /// A daemon hears its tap, or its player while a track plays; only one feeds the outputs.
    public enum Source: Sendable {
        case tap, player
    }
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Outputs made on the caller's thread and handed to the sending thread once; never touched
    /// here afterwards.
    private final class Handover: @unchecked Sendable {
        var lanes: [OutputLane]
        init(_ lanes: [OutputLane]) { self.lanes = lanes }
    }

    /// - Parameters:
    ///   - rate: ticks a second of the outputs that follow the display (DDP, OSC, the page);
    ///     WLED's audio sync has its own 50.
    ///   - heardDelay: seconds from a buffer's stamp to when it is heard (a tap's sink latency; 0
    ///     for a player, which stamps what it writes with when it is heard).
    ///   - notice: one line about an output (a host not found, a port in use).
    public init(targets: [OutputTarget], display: DisplaySettings, rate: Double,
                heardDelay: @escaping @Sendable () -> Double,
                notice: @escaping @Sendable (String) -> Void) throws(CommandFailure) {
        self.targets = targets
        needsBeats = targets.contains { $0.kind == .wled || $0.kind == .osc } || (display.beatAccent && !targets.isEmpty)
        current = Mutex(Hearing(.tap, heardDelay))
        let start = MonotonicClock.now()
        var lanes: [OutputLane] = []
        var destinations: [(String, @Sendable () -> String)] = []
        func lane(period: Double, offset: Double) -> OutputLane {
            if let lane = lanes.first(where: { $0.period == period && $0.offset == offset }) { return lane }
            let lane = OutputLane(period: period, offset: offset, feed: AudioFeed(marksOnsets: true), display: display, start: start)
            lanes.append(lane)
            return lane
        }
        for target in targets {
            let output: any Output
            var period = 1 / rate
            switch target.kind {
            case .wled:
                output = WLEDOutput(target: target, notice: notice)
                period = 1 / WLEDOutput.rate
            case .ddp:
                output = DDPOutput(target: target, notice: notice)
            case .osc:
                guard let osc = OSCOutput(target: target, notice: notice) else {
                    throw CommandFailure(message: "\(target.url): OSC needs liblo: \(OSCMessage.libraryFailure ?? "it could not make a message")")
                }
                output = osc
            case .http:
                // A page that cannot be served (a port in use) is said once; the other outputs go on.
                guard let web = WebOutput(target: target, display: display, notice: notice) else { continue }
                output = web
            }
            lane(period: period, offset: target.offset).outputs.append(output)
            destinations.append((target.url, output.statusLine))
        }
        feeds = lanes.map(\.feed)
        self.destinations = destinations
        let handover = Handover(lanes)
        let thread = Thread { [self] in
            RealtimePriority.outputs.raiseCurrentThread()
            run(lanes: handover.lanes)
            // The outputs go before `stop` returns: a page's port is free again for the next hub.
            handover.lanes = []
            finished.signal()
        }
        thread.name = "decibar-send"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// The sending thread: each lane sends on its own grid or at a burst; the thread sleeps until
    /// the next send, or until new audio brings a burst.
    private func run(lanes: [OutputLane]) {
        guard !lanes.isEmpty else { return }
        while !stopped.value.load(ordering: .acquiring) {
            let heardDelay = current.withLock { $0.heardDelay }()
            var next = (lane: lanes[0], send: (time: Double.infinity, heardBy: 0.0))
            for lane in lanes {
                lane.feed.delay = heardDelay
                var send = lane.nextSend()
                send.time -= Self.margin(lane)
                if send.time < next.send.time { next = (lane, send) }
            }
            let wait = next.send.time - MonotonicClock.now()
            if wait > Self.finalStretch {
                // A semaphore's timeout can land a millisecond late: the last stretch is slept exactly.
                _ = wake.wait(timeout: .now() + .nanoseconds(Int((wait - Self.finalStretch) * 1e9)))
                continue
            }
            if wait > 0 { MonotonicClock.sleep(seconds: wait) }
            let moment = next.send.time + Self.margin(next.lane)
            next.lane.prepare(scheduled: moment, heardBy: next.send.heardBy, now: MonotonicClock.now())
            let early = moment - MonotonicClock.now()
            if early > 0 { MonotonicClock.sleep(seconds: early) }
            next.lane.emit()
        }
    }

    /// How early a lane's send is made: twice what making it takes, and 3 ms.
    private static func margin(_ lane: OutputLane) -> Double { 2 * lane.lead + 0.003 }

    /// The end of a wait that is slept rather than waited for.
    static let finalStretch = 0.002

    /// Ticks a second of the outputs that follow the display when no window sets the pace.
    public static let displayRate = 60.0

    /// A hub for `targets`, already sending; nil when there are none. Notices go to stderr.
    static func starting(_ targets: [OutputTarget], display: DisplaySettings, rate: Double,
                         heardDelay: @escaping @Sendable () -> Double) throws(CommandFailure) -> OutputHub? {
        guard !targets.isEmpty else { return nil }
        return try OutputHub(targets: targets, display: display, rate: rate, heardDelay: heardDelay) { writeError($0) }
    }

    /// Hears of each beat the feed pump finds in `source`'s audio.
    func beatListener(from source: Source = .tap) -> @Sendable (BeatEvent) -> Void {
        { [self] event in if event.isBeat { addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence, from: source) } }
    }

    /// A tap's buffer as it arrives (from the feed pump's task).
    public func add(_ buffer: AudioBuffer) { add(buffer, from: .tap) }

    /// A buffer from `source`; dropped unless that source is the one heard now.
    public func add(_ buffer: AudioBuffer, from source: Source) {
        guard current.withLock({ $0.source }) == source else { return }
        var burst = false
        for feed in feeds {
            if feed.add(buffer) { burst = true }
        }
        // A burst may be due before the thread's next send: it looks again.
        if burst { wake.signal() }
    }

    /// A beat whose sound starts at `time` on the buffers' clock.
    public func addBeat(at time: Double, bpm: Double, confidence: Double, from source: Source = .tap) {
        guard current.withLock({ $0.source }) == source else { return }
        for feed in feeds { feed.addBeat(at: time, bpm: bpm, confidence: confidence) }
        wake.signal()
    }

    /// Takes the audio from `source` from now on (what waits from the other is dropped).
    public func use(_ source: Source, heardDelay: @escaping @Sendable () -> Double) {
        let changed = current.withLock { current in
            defer { current = Hearing(source, heardDelay) }
            return current.source != source
        }
        if changed { discardWaiting() }
    }

    /// The source heard now.
    public var source: Source { current.withLock { $0.source } }

    /// Audio that will not be heard after all (a seek, a new track): dropped from every lane.
    public func discardWaiting() {
        for feed in feeds { feed.discardWaiting() }
    }

    /// One line per output, for `ctl status`.
    public var statusLines: [String] { destinations.map { $0.summary() } }

    /// Stops the sending thread and waits for it.
    public func stop() {
        guard !stopped.value.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake.signal()
        finished.wait()
    }
}
