import DecibarAudio
import DecibarCore
import Synchronization

/// The daemon's subscribers and what they are sent. Audio subscribers (levels, spectrum, loudness)
/// each get the lines `decibar levels` would print, made from the daemon's one tap by the task
/// that drains it; beat subscribers get beats when they are heard (`BeatAnnouncer`); status
/// subscribers get the status whenever it changes.
final class SubscriberHub: Sendable {
    private struct Subscriber {
        let client: ControlClientHandle
        let subscription: Subscription
        /// When it subscribed: the origin of its beat lines' `t`.
        let since = MonotonicClock.now()
        /// Made by the draining task on its first buffer: spectrum analyzers belong to that task.
        var lines: LiveLines?
    }

    private let subscribers = Mutex<[Subscriber]>([])

    /// Adds (or replaces) the client's subscription of that kind.
    func add(_ client: ControlClientHandle, _ subscription: Subscription) {
        subscribers.withLock { list in
            list.removeAll { $0.client == client && $0.subscription.kind == subscription.kind }
            list.append(Subscriber(client: client, subscription: subscription))
        }
    }

    /// Removes the client's subscriptions of `kind` (all of them for nil); how many were removed.
    @discardableResult
    func remove(_ client: ControlClientHandle, kind: Subscription.Kind? = nil) -> Int {
        subscribers.withLock { list in
            let before = list.count
            list.removeAll { $0.client == client && (kind == nil || $0.subscription.kind == kind) }
            return before - list.count
        }
    }

    /// Subscribers that need the tap.
    var audioSubscriberCount: Int { subscribers.withLock { $0.count { $0.subscription.kind != .status } } }

    var count: Int { subscribers.withLock { $0.count } }

    /// Sends the status to its subscribers.
    func publishStatus(_ data: JSONValue) {
        var event: [UInt8] = []
        subscribers.withLock { list in
            for subscriber in list where subscriber.subscription.kind == .status {
                if event.isEmpty { event = ControlMessage.event("status", ["data": data]) }
                subscriber.client.send(event, droppable: true)
            }
        }
    }

    /// Sends an event to every connected subscriber (a config error, the daemon stopping).
    func publish(_ event: [UInt8]) {
        subscribers.withLock { list in
            var told = Set<Int>()
            for subscriber in list where told.insert(subscriber.client.id).inserted {
                subscriber.client.send(event, droppable: false)
            }
        }
    }

    /// Whether some subscriber wants beats (the tap then delivers 10 ms at a time).
    var hasBeatSubscribers: Bool { subscribers.withLock { $0.contains { $0.subscription.kind == .beats } } }

    /// Sends a beat (or the tempo) to the beat subscribers, `t` counted from each one's subscription.
    func publishBeat(_ event: BeatEvent) {
        var line: [UInt8] = []
        subscribers.withLock { list in
            for subscriber in list where subscriber.subscription.kind == .beats {
                line.removeAll(keepingCapacity: true)
                event.appendLine(origin: subscriber.since, to: &line)
                subscriber.client.send(ControlMessage.event(Subscription.Kind.beats.rawValue, line: line), droppable: true)
            }
        }
    }

    /// One tap buffer: each audio subscriber's lines move on, and lines that close are sent.
    /// (Beat subscribers hear from `publishBeat`.)
    func process(_ buffer: AudioBuffer, now: Double) {
        subscribers.withLock { list in
            for index in list.indices where list[index].subscription.kind != .status && list[index].subscription.kind != .beats {
                if list[index].lines == nil {
                    let subscriber = list[index]
                    let name = subscriber.subscription.kind.rawValue
                    list[index].lines = LiveLines(settings: subscriber.subscription.levelsSettings, rate: subscriber.subscription.rate,
                                                  start: now) { line in
                        subscriber.client.send(ControlMessage.event(name, line: line), droppable: true)
                    }
                }
                list[index].lines?.add(buffer)
            }
        }
    }
}

extension Subscription {
    /// What the lines hold, as `levels --mode` would print them.
    var levelsSettings: LevelsSettings {
        var settings = LevelsSettings()
        switch kind {
        case .spectrum: settings.mode = .spectrum
        case .loudness: settings.mode = .loudness
        case .beats: settings.mode = .beats
        case .stereo: settings.mode = .stereo
        case .levels, .status: settings.mode = .levels
        }
        settings.bands = bands
        return settings
    }
}
