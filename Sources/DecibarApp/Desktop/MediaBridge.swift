import DecibarCore
import DecibarRender
import DecibarSystem
import Synchronization

/// The player on the session bus (MPRIS 2): publishes the session's state every frame or tick,
/// signals seeks, and queues what the desktop asks for until the main thread takes it.
final class MediaBridge {
    private let service: MediaPlayerService
    private let requests: RequestQueue?
    private var seen: (session: ObjectIdentifier?, seekCount: Int) = (nil, 0)
    /// The list as last published, made again only when the session's files change.
    private var listed: (files: [String], tracks: [MediaTrack]) = ([], [])

    /// Publishes the player, or passes `unavailable` why not (no session bus) and returns nil: the
    /// rest works as before. `post` takes each request as it arrives (the daemon's inbox); without
    /// it, requests wait for `takeRequests`, and the window is woken for them.
    static func start(post: (@Sendable (MediaRequest) -> Void)? = nil, unavailable: (String) -> Void) -> MediaBridge? {
        let queue = post == nil ? RequestQueue() : nil
        do {
            let service = try MediaPlayerService { request in
                if let post { post(request) } else { queue?.requests.withLock { $0.append(request) } }
                Window.wakeEventLoop()
            }
            return MediaBridge(service: service, requests: queue)
        } catch {
            unavailable("media keys and playerctl are off (MPRIS): \(error.description)")
            return nil
        }
    }

    private init(service: MediaPlayerService, requests: RequestQueue?) {
        self.service = service
        self.requests = requests
    }

    var busName: String { service.busName }

    /// What the desktop asked since the last call, oldest first.
    func takeRequests() -> [MediaRequest] {
        requests?.requests.withLock { queue in
            guard !queue.isEmpty else { return [] }
            defer { queue = [] }
            return queue
        } ?? []
    }

    /// Publishes the session's state (an empty player without one).
    func publish(_ session: PlaySession?) {
        var state = MediaPlayerState()
        guard let session else {
            service.update(state, position: 0)
            return
        }
        session.refreshDuration()
        state.status = session.status
        state.loop = session.loop
        state.shuffle = session.shuffle
        state.volume = session.volume
        state.rate = session.rateAndPitch.rate
        if session.files != listed.files {
            listed = (session.files, session.files.enumerated().map { MediaTrack(index: $0, path: PlaySession.absolute($1), tags: TrackTags(), duration: 0) })
        }
        state.trackList = listed.tracks
        if session.hasTrack {
            state.track = session.track
            state.canGoNext = session.canGoNext
            state.canGoPrevious = session.canGoPrevious
            state.canSeek = session.duration > 0
        }
        let position = session.playhead
        service.update(state, position: position)
        let identity = ObjectIdentifier(session)
        if seen.session != identity {
            seen = (identity, session.seekCount)
        } else if seen.seekCount != session.seekCount {
            seen.seekCount = session.seekCount
            service.seeked(to: session.lastSeekTarget)
        }
    }

    func stop() { service.stop() }
}

/// Requests from the bus thread, waiting for the main thread.
private final class RequestQueue: Sendable {
    let requests = Mutex<[MediaRequest]>([])
}
