import DecibarAudio
import DecibarCore
import DecibarRender
import Synchronization

/// Drains buffers (a tap's, a player's) into an audio feed on the concurrency pool, off the frame
/// loop. While the window rests (`isResting`), the first buffer that is not silent wakes it.
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

    /// - Parameter also: sees every buffer after the feed (a daemon's subscribers).
    init(_ buffers: AudioBufferStream, into feed: AudioFeed, also: (@Sendable (AudioBuffer) -> Void)? = nil) {
        let rest = self.rest
        let feeding = self.feeding
        feeding.value.store(true, ordering: .releasing)
        task = Task.detached(priority: .high) {
            await buffers.forEach { buffer in
                if feeding.value.load(ordering: .acquiring) { feed.add(buffer) }
                also?(buffer)
                if rest.value.load(ordering: .acquiring), !buffer.isDigitalSilence {
                    rest.value.store(false, ordering: .releasing)
                    Window.wakeEventLoop()
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

    func cancel() { task.cancel() }
}
