import DecibarCore
import Dispatch
import Synchronization

/// Tells the daemon's beat subscribers of each beat when it is heard. The player's beats are
/// found before they are heard (its buffers are stamped with that moment) and wait for it on a
/// timer; the tap's are heard already and go at once. While the player plays, its beats are the
/// ones told: the tap hears the same music later. A seek drops those still waiting.
final class BeatAnnouncer: Sendable {
    enum Source: Sendable { case tap, player }

    private struct State {
        var lastPlayerEvent = -Double.infinity
        var bpm: Double?
        var confidence = 0.0
        /// Grows at each seek: events scheduled before it are not told.
        var generation = 0
        /// Events scheduled and not told yet.
        var waiting = 0
    }

    private let hub: SubscriberHub
    private let state = Mutex(State())
    /// Events wait here, in order, for when they are heard.
    private let queue = DispatchQueue(label: "decibar.beats", qos: .userInteractive)
    /// The player counts as playing this long after its last event (one comes each second at least).
    static let playerHold = 2.5

    init(hub: SubscriberHub) {
        self.hub = hub
    }

    /// The tempo last told, for the status.
    var tempo: (bpm: Double?, confidence: Double) { state.withLock { ($0.bpm, $0.confidence) } }

    func announce(_ event: BeatEvent, from source: Source) {
        let now = MonotonicClock.now()
        let generation: Int? = state.withLock { state in
            if source == .player { state.lastPlayerEvent = now }
            guard source == .player || now - state.lastPlayerEvent > Self.playerHold else { return nil }
            state.bpm = event.bpm
            state.confidence = event.confidence
            state.waiting += 1
            return state.generation
        }
        guard let generation else { return }
        let tell: @Sendable () -> Void = { [self] in
            let isCurrent = state.withLock { state in
                state.waiting -= 1
                return state.generation == generation
            }
            if isCurrent { hub.publishBeat(event) }
        }
        let wait = event.time - now
        if wait <= 0 {
            queue.async(execute: tell)
        } else {
            queue.asyncAfter(deadline: .now() + wait, execute: tell)
        }
    }

    /// The player's audio not heard yet never will be (a seek, the track closed): the events
    /// waiting for it are dropped.
    func discardWaiting() {
        state.withLock { $0.generation += 1 }
    }

    /// Events waiting to be told (for the tests).
    var waitingCount: Int { state.withLock { $0.waiting } }
}
