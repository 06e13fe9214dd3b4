import DecibarAudio
import DecibarCore
import DecibarRender
import Synchronization

/// Drains buffers (a tap's, a player's) into an audio feed on the concurrency pool, off the frame
/// loop, finding their beats on the way. While the window rests (`isResting`), the first buffer
/// that is not silent wakes it.
struct FeedPump {
    /// Shared between the frame loop, which sets it, and the pump, which clears it on sound.
    final class RestFlag: Sendable {
        let value = Atomic<Bool>(false)
    }

    let task: Task<Void, Never>
    let rest = RestFlag()
    /// Cleared while no window reads the feed (a daemon's hidden window): buffers then go only to
    /// `also`, instead of filling the feed to its capacity and shifting it on every buffer.
    let feeding = RestFlag()
    /// Cleared while nothing needs beats (a daemon with no beat subscriber, no output sending
    /// hits or drawing the accent, and no window using them): no beat finding at all then.
    let findingBeats = RestFlag()
    /// After a seek, the frame the new audio starts at: what comes before it continues the old
    /// audio, already on its way, and is never heard. `Int64.min` when nothing is awaited.
    final class AwaitedFrame: Sendable {
        let value = Atomic<Int64>(.min)
    }
    let awaited = AwaitedFrame()
    /// Buffers taken (counted once done with, beats found and told), and those whose beats were
    /// looked for (for the tests).
    final class Counts: Sendable {
        let taken = Atomic<Int>(0)
        let lookedAtForBeats = Atomic<Int>(0)
    }
    let counts = Counts()

    /// - Parameters:
    ///   - also: sees every buffer after the feed (a daemon's subscribers).
    ///   - told: hears of each beat found, and of the tempo each second without one, with times
    ///     on the buffers' clock (a daemon's beat subscribers).
    ///   - wake: wakes the loop that rests (a window's by default; the terminal's own).
    init(_ buffers: AudioBufferStream, into feed: AudioFeed, also: (@Sendable (AudioBuffer) -> Void)? = nil,
         told: (@Sendable (BeatEvent) -> Void)? = nil, wake: @escaping @Sendable () -> Void = { Window.wakeEventLoop() }) {
        let (rest, feeding, findingBeats, awaited, counts) = (self.rest, self.feeding, self.findingBeats, self.awaited, self.counts)
        feeding.value.store(true, ordering: .releasing)
        findingBeats.value.store(true, ordering: .releasing)
        task = Task.detached(priority: .high) {
            // Beats are found here, as buffers arrive: a player's before they are heard, a tap's
            // as soon as its audio allows; the feed says each when heard.
            var beats = BeatFinder()
            await buffers.forEach { buffer in
                defer { counts.taken.add(1, ordering: .releasing) }
                let frame = awaited.value.load(ordering: .acquiring)
                if frame != .min {
                    // Old audio after a seek: its beats and bursts must not be told.
                    guard buffer.startFrame == frame else { return }
                    // (Unless another seek has set a new frame meanwhile.)
                    _ = awaited.value.compareExchange(expected: frame, desired: .min, ordering: .acquiringAndReleasing)
                }
                let feeds = feeding.value.load(ordering: .acquiring)
                if feeds { feed.add(buffer) }
                if (feeds || told != nil) && findingBeats.value.load(ordering: .acquiring) {
                    counts.lookedAtForBeats.add(1, ordering: .relaxed)
                    beats.add(buffer) { event in
                        if feeds && event.isBeat { feed.addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence) }
                        told?(event)
                    }
                }
                also?(buffer)
                if rest.value.load(ordering: .acquiring), !buffer.isDigitalSilence {
                    rest.value.store(false, ordering: .releasing)
                    wake()
                }
            }
        }
    }

    /// Whether the window is sleeping until sound comes back.
    var isResting: Bool {
        get { rest.value.load(ordering: .acquiring) }
        nonmutating set { rest.value.store(newValue, ordering: .releasing) }
    }

    /// Whether buffers go into the feed.
    var feedsWindow: Bool {
        get { feeding.value.load(ordering: .acquiring) }
        nonmutating set { feeding.value.store(newValue, ordering: .releasing) }
    }

    /// Whether beats are looked for.
    var findsBeats: Bool {
        get { findingBeats.value.load(ordering: .acquiring) }
        nonmutating set { findingBeats.value.store(newValue, ordering: .releasing) }
    }

    /// A seek: buffers are dropped until one starts at `frame` (the first of the new audio).
    func awaitFrame(_ frame: Int64) { awaited.value.store(frame, ordering: .releasing) }

    func cancel() { task.cancel() }
}
