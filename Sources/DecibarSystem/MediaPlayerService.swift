import CMpris
import DecibarCore
import Foundation
import Synchronization

/// A player on the session bus as MPRIS 2 (`org.mpris.MediaPlayer2.decibar`), so that media keys,
/// `playerctl`, desktop widgets and status bars control it and read what it plays.
///
/// sd-bus has no locking of its own, so the connection lives on a thread of its own: it answers
/// calls, reads properties from the latest state (set by the player's thread with `update`), and
/// signals changes. What callers ask for is handed to `onRequest`, in order, to be carried out on
/// the player's thread.
public final class MediaPlayerService: Sendable {
    /// The name on the bus: `org.mpris.MediaPlayer2.decibar`, or with `.instance<pid>` when
    /// another player holds that.
    public let busName: String

    static let objectPath = "/org/mpris/MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    /// The specification's id for "no track".
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    private struct Shared {
        var state = MediaPlayerState()
        /// The state the bus was last told of.
        var announced = MediaPlayerState()
        var position = 0.0
        var positionTakenAt = 0.0
        /// Positions of seeks not yet signalled (µs).
        var seeks: [Int64] = []
        var stops = false
    }

    private let shared = Mutex(Shared())
    private let identity: String
    private let onRequest: @Sendable (MediaRequest) -> Void
    /// Wakes the bus thread when there is something to signal, or to stop.
    private let wakeDescriptor: Int32
    private let connection: BusConnection
    private let finished = Mutex(false)

    /// Connects to the session bus and takes the player's name. Throws a one-line reason when
    /// there is no session bus (MPRIS is then left out; nothing else depends on it).
    public init(identity: String = "Decibar", onRequest: @escaping @Sendable (MediaRequest) -> Void) throws(MediaPlayerServiceError) {
        self.identity = identity
        self.onRequest = onRequest
        if let failure = systemdLibrary.failure { throw MediaPlayerServiceError(failure) }
        var bus: OpaquePointer?
        let opened = systemdFunctions.sd_bus_open_user!(&bus)
        guard opened >= 0, let bus else { throw MediaPlayerServiceError("no session bus (\(Self.errorText(opened)))") }
        var name = "org.mpris.MediaPlayer2.decibar"
        var requested = systemdFunctions.sd_bus_request_name!(bus, name, 0)
        if requested == -EEXIST {
            // The suffix must not start with a digit.
            name += ".instance\(getpid())"
            requested = systemdFunctions.sd_bus_request_name!(bus, name, 0)
        }
        guard requested >= 0 else {
            _ = systemdFunctions.sd_bus_flush_close_unref!(bus)
            throw MediaPlayerServiceError("cannot take a name on the session bus (\(Self.errorText(requested)))")
        }
        let wake = eventfd(0, Int32(EFD_CLOEXEC) | Int32(EFD_NONBLOCK))
        guard wake >= 0 else {
            _ = systemdFunctions.sd_bus_flush_close_unref!(bus)
            throw MediaPlayerServiceError("cannot make an eventfd (\(Self.errorText(-errno)))")
        }
        busName = name
        wakeDescriptor = wake
        connection = BusConnection(bus: bus)
        let target = UnsafeMutablePointer<DecibarMprisTarget>.allocate(capacity: 1)
        target.initialize(to: DecibarMprisTarget(owner: Unmanaged.passUnretained(self).toOpaque(),
                                                 get_property: Self.getProperty, set_property: Self.setProperty,
                                                 call_method: Self.callMethod, answer_method: Self.answerMethod))
        connection.target = target
        for (interface, table) in [("org.mpris.MediaPlayer2", decibar_mpris_root_vtable()),
                                   (Self.playerInterface, decibar_mpris_player_vtable()),
                                   (Self.trackListInterface, decibar_mpris_track_list_vtable())] {
            let added = systemdFunctions.sd_bus_add_object_vtable!(bus, nil, Self.objectPath, interface, table, UnsafeMutableRawPointer(target))
            guard added >= 0 else {
                close(wake)
                _ = systemdFunctions.sd_bus_flush_close_unref!(bus)
                target.deallocate()
                throw MediaPlayerServiceError("cannot publish \(interface) (\(Self.errorText(added)))")
            }
        }
        // The thread holds the service until `stop` (the C side holds a pointer to it).
        let thread = Thread { [self] in runBusLoop() }
        thread.name = "decibar-mpris"
        thread.start()
    }

    /// Publishes the player's state; `position` is the playhead in seconds now. Cheap when
    /// nothing but the position changed: the bus thread is woken only for a change to signal.
    public func update(_ state: MediaPlayerState, position: Double) {
        let now = Self.monotonicNow()
        let changed = shared.withLock { shared in
            shared.position = position
            shared.positionTakenAt = now
            guard shared.state != state else { return false }
            shared.state = state
            return true
        }
        if changed { wake() }
    }

    /// The position jumped (a seek, a drag, a track played again): signals `Seeked`.
    public func seeked(to position: Double) {
        let now = Self.monotonicNow()
        shared.withLock {
            $0.position = position
            $0.positionTakenAt = now
            $0.seeks.append(Int64((position * 1_000_000).rounded()))
        }
        wake()
    }

    /// Leaves the bus and ends the thread; waits for it (at most a moment: the loop only polls).
    public func stop() {
        let already = shared.withLock { shared in
            defer { shared.stops = true }
            return shared.stops
        }
        guard !already else { return }
        wake()
        while !finished.withLock({ $0 }) { usleep(1000) }
    }

    deinit {
        close(wakeDescriptor)
    }

    private func wake() {
        var one: UInt64 = 1
        _ = write(wakeDescriptor, &one, 8)
    }

    // MARK: The bus thread

    private func runBusLoop() {
        let bus = connection.bus
        defer {
            _ = systemdFunctions.sd_bus_flush_close_unref!(bus)
            connection.target?.deinitialize(count: 1)
            connection.target?.deallocate()
            connection.target = nil
            finished.withLock { $0 = true }
        }
        var descriptors = [pollfd(fd: systemdFunctions.sd_bus_get_fd!(bus), events: 0, revents: 0),
                           pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        while true {
            var processed: Int32
            repeat { processed = systemdFunctions.sd_bus_process!(bus, nil) } while processed > 0
            if processed < 0 {
                writeLine("decibar: MPRIS stopped: the session bus went away (\(Self.errorText(processed)))")
                return
            }
            let (stops, changes, seeks, replacedList) = shared.withLock { shared in
                let changes = shared.state.changedProperties(since: shared.announced)
                let replaced = shared.state.trackList != shared.announced.trackList
                    ? (shared.state.trackList.map(\.id), shared.state.track?.id ?? Self.noTrack) : nil
                shared.announced = shared.state
                defer { shared.seeks = [] }
                return (shared.stops, changes, shared.seeks, replaced)
            }
            if stops { return }
            if !changes.isEmpty { announce(changes, on: bus) }
            if let replacedList { signalTrackListReplaced(replacedList.0, current: replacedList.1, on: bus) }
            for position in seeks { signalSeeked(position, on: bus) }
            descriptors[0].events = Int16(truncatingIfNeeded: systemdFunctions.sd_bus_get_events!(bus))
            var deadline: UInt64 = 0
            var timeout: Int32 = -1
            if systemdFunctions.sd_bus_get_timeout!(bus, &deadline) > 0, deadline != UInt64.max {
                let now = UInt64(Self.monotonicNow() * 1_000_000)
                timeout = deadline <= now ? 0 : Int32(min(60_000, (deadline - now + 999) / 1000))
            }
            if !changes.isEmpty || !seeks.isEmpty || replacedList != nil { timeout = 0 }
            _ = poll(&descriptors, 2, timeout)
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                var count: UInt64 = 0
                _ = read(wakeDescriptor, &count, 8)
            }
        }
    }

    private func announce(_ names: [String], on bus: OpaquePointer) {
        var strings = names.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        strings.append(nil)
        _ = strings.withUnsafeMutableBufferPointer { buffer in
            systemdFunctions.sd_bus_emit_properties_changed_strv!(bus, Self.objectPath, Self.playerInterface, buffer.baseAddress)
        }
    }

    private func signalSeeked(_ position: Int64, on bus: OpaquePointer) {
        var message: OpaquePointer?
        guard systemdFunctions.sd_bus_message_new_signal!(bus, &message, Self.objectPath, Self.playerInterface, "Seeked") >= 0, let message else { return }
        defer { _ = systemdFunctions.sd_bus_message_unref!(message) }
        var value = position
        guard systemdFunctions.sd_bus_message_append_basic!(message, Self.type("x"), &value) >= 0 else { return }
        _ = systemdFunctions.sd_bus_send!(bus, message, nil)
    }

    /// The list is another (opened, added to, shuffled): `TrackListReplaced(tracks, current)`.
    private func signalTrackListReplaced(_ ids: [String], current: String, on bus: OpaquePointer) {
        var message: OpaquePointer?
        guard systemdFunctions.sd_bus_message_new_signal!(bus, &message, Self.objectPath, Self.trackListInterface, "TrackListReplaced") >= 0,
              let message else { return }
        defer { _ = systemdFunctions.sd_bus_message_unref!(message) }
        guard Self.appendPaths(ids, to: message) >= 0, Self.append(current, type: "o", to: message) >= 0 else { return }
        _ = systemdFunctions.sd_bus_send!(bus, message, nil)
    }

    // MARK: Properties

    private static let getProperty: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> Int32 = {
        owner, _, property, reply in
        guard let owner, let property, let reply else { return -EINVAL }
        return Unmanaged<MediaPlayerService>.fromOpaque(owner).takeUnretainedValue().append(String(cString: property), to: reply)
    }

    private static let setProperty: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?) -> Int32 = {
        owner, _, property, value in
        guard let owner, let property, let value else { return -EINVAL }
        return Unmanaged<MediaPlayerService>.fromOpaque(owner).takeUnretainedValue().set(String(cString: property), from: value)
    }

    private static let callMethod: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, OpaquePointer?,
                                                   UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
        owner, _, member, call, error in
        guard let owner, let member, let call else { return -EINVAL }
        return Unmanaged<MediaPlayerService>.fromOpaque(owner).takeUnretainedValue().call(String(cString: member), call, error: error)
    }

    private static let answerMethod: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?, OpaquePointer?,
                                                     UnsafeMutablePointer<sd_bus_error>?) -> Int32 = {
        owner, member, call, reply, _ in
        guard let owner, let member, let call, let reply else { return -EINVAL }
        return Unmanaged<MediaPlayerService>.fromOpaque(owner).takeUnretainedValue().answer(String(cString: member), call, reply: reply)
    }

    /// The playhead now: where it was last published, moved on by the time since while playing.
    private var currentPosition: (state: MediaPlayerState, position: Int64) {
        let now = Self.monotonicNow()
        return shared.withLock { shared in
            var seconds = shared.position
            if shared.state.status == .playing { seconds += (now - shared.positionTakenAt) * shared.state.rate }
            var microseconds = Int64((max(0, seconds) * 1_000_000).rounded())
            if let length = shared.state.track?.length { microseconds = min(microseconds, length) }
            return (shared.state, microseconds)
        }
    }

    private func append(_ property: String, to reply: OpaquePointer) -> Int32 {
        let (state, position) = currentPosition
        switch property {
        case "CanQuit", "CanRaise", "CanControl": return Self.append(true, to: reply)
        case "HasTrackList": return Self.append(true, to: reply)
        case "CanEditTracks": return Self.append(false, to: reply)
        case "Tracks": return Self.appendPaths(state.trackList.map(\.id), to: reply)
        case "Identity": return Self.append(identity, type: "s", to: reply)
        case "DesktopEntry": return Self.append("decibar", type: "s", to: reply)
        case "SupportedUriSchemes": return Self.append(["file"], to: reply)
        case "SupportedMimeTypes": return Self.append(Self.mimeTypes, to: reply)
        case "PlaybackStatus": return Self.append(state.status.mprisName, type: "s", to: reply)
        case "LoopStatus": return Self.append(state.loop.mprisName, type: "s", to: reply)
        case "Rate": return Self.append(state.rate, to: reply)
        case "Shuffle": return Self.append(state.shuffle, to: reply)
        case "MinimumRate": return Self.append(state.minimumRate, to: reply)
        case "MaximumRate": return Self.append(state.maximumRate, to: reply)
        case "Volume": return Self.append(state.volume / 100, to: reply)
        case "Position":
            var value = position
            return systemdFunctions.sd_bus_message_append_basic!(reply, Self.type("x"), &value)
        case "Metadata": return Self.appendMetadata(state.track, to: reply)
        case "CanGoNext": return Self.append(state.canGoNext, to: reply)
        case "CanGoPrevious": return Self.append(state.canGoPrevious, to: reply)
        case "CanPlay": return Self.append(state.canPlay, to: reply)
        case "CanPause": return Self.append(state.canPause, to: reply)
        case "CanSeek": return Self.append(state.canSeek, to: reply)
        default: return -ENOENT
        }
    }

    private func set(_ property: String, from value: OpaquePointer) -> Int32 {
        switch property {
        case "LoopStatus":
            guard let text = Self.readString(value, type: "s"), let loop = LoopMode(mprisName: text) else { return -EINVAL }
            onRequest(.setLoop(loop))
        case "Shuffle":
            var flag: Int32 = 0
            let read = systemdFunctions.sd_bus_message_read_basic!(value, Self.type("b"), &flag)
            guard read > 0 else { return -EINVAL }
            onRequest(.setShuffle(flag != 0))
        case "Volume":
            var number = 0.0
            let read = systemdFunctions.sd_bus_message_read_basic!(value, Self.type("d"), &number)
            guard read > 0, number.isFinite else { return -EINVAL }
            // Negative values mean silence (the specification's rule).
            onRequest(.setVolume(PlayerVolume.clamped(number * 100)))
        case "Rate":
            var number = 0.0
            let read = systemdFunctions.sd_bus_message_read_basic!(value, Self.type("d"), &number)
            guard read > 0, number.isFinite else { return -EINVAL }
            onRequest(.setRate(number))
        default:
            return -EPERM
        }
        return 0
    }

    private func call(_ member: String, _ call: OpaquePointer, error: UnsafeMutablePointer<sd_bus_error>?) -> Int32 {
        let request: MediaRequest
        switch member {
        case "Raise": request = .raise
        case "Quit": request = .quit
        case "Play": request = .play
        case "Pause": request = .pause
        case "PlayPause": request = .playPause
        case "Stop": request = .stop
        case "Next": request = .next
        case "Previous": request = .previous
        case "Seek":
            var offset: Int64 = 0
            guard systemdFunctions.sd_bus_message_read_basic!(call, Self.type("x"), &offset) > 0 else { return -EINVAL }
            request = .seek(by: offset)
        case "SetPosition":
            var position: Int64 = 0
            guard let track = Self.readString(call, type: "o"), systemdFunctions.sd_bus_message_read_basic!(call, Self.type("x"), &position) > 0 else {
                return -EINVAL
            }
            request = .setPosition(trackID: track, position: position)
        case "GoTo":
            guard let track = Self.readString(call, type: "o") else { return -EINVAL }
            request = .goTo(trackID: track)
        case "AddTrack", "RemoveTrack":
            return systemdFunctions.sd_bus_error_set!(error, "org.freedesktop.DBus.Error.NotSupported",
                                                      "decibar's list is edited with decibar ctl open (CanEditTracks is false)")
        case "OpenUri":
            guard let uri = Self.readString(call, type: "s") else { return -EINVAL }
            guard let path = MediaTrack.path(fromURI: uri) else {
                return systemdFunctions.sd_bus_error_set!(error, "org.freedesktop.DBus.Error.NotSupported", "decibar opens file:// URIs only")
            }
            request = .open(path: path)
        default:
            return -EOPNOTSUPP
        }
        onRequest(request)
        return 0
    }

    /// A method with an answer: GetTracksMetadata(ids) gives each known track's metadata, in the
    /// order asked (ids not in the list are left out, as the specification says).
    private func answer(_ member: String, _ call: OpaquePointer, reply: OpaquePointer) -> Int32 {
        guard member == "GetTracksMetadata" else { return -EOPNOTSUPP }
        guard let ids = Self.readPaths(call) else { return -EINVAL }
        let state = shared.withLock { $0.state }
        var result = systemdFunctions.sd_bus_message_open_container!(reply, Self.type("a"), "a{sv}")
        for id in ids where result >= 0 {
            // The open track in full; the others by name and address.
            guard let track = state.track?.id == id ? state.track : state.trackList.first(where: { $0.id == id }) else { continue }
            result = Self.appendMetadata(track, to: reply)
        }
        guard result >= 0 else { return result }
        return systemdFunctions.sd_bus_message_close_container!(reply)
    }

    // MARK: Messages

    private static let mimeTypes = ["audio/wav", "audio/x-wav", "audio/flac", "audio/x-flac", "audio/ogg", "audio/opus", "audio/mpeg",
                                    "audio/aac", "audio/mp4", "audio/x-m4a", "audio/aiff", "audio/x-aiff", "audio/x-caf", "video/mp4",
                                    "video/quicktime"]

    private static func type(_ character: Character) -> CChar { CChar(character.asciiValue!) }

    private static func append(_ value: Bool, to message: OpaquePointer) -> Int32 {
        // sd-bus booleans are C ints.
        var flag: Int32 = value ? 1 : 0
        return systemdFunctions.sd_bus_message_append_basic!(message, type("b"), &flag)
    }

    private static func append(_ value: Double, to message: OpaquePointer) -> Int32 {
        var number = value
        return systemdFunctions.sd_bus_message_append_basic!(message, type("d"), &number)
    }

    private static func append(_ value: String, type: Character, to message: OpaquePointer) -> Int32 {
        value.withCString { systemdFunctions.sd_bus_message_append_basic!(message, Self.type(type), $0) }
    }

    private static func append(_ values: [String], to message: OpaquePointer) -> Int32 {
        var strings = values.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        strings.append(nil)
        return strings.withUnsafeMutableBufferPointer { systemdFunctions.sd_bus_message_append_strv!(message, $0.baseAddress) }
    }

    /// `ao`.
    private static func appendPaths(_ paths: [String], to message: OpaquePointer) -> Int32 {
        var result = systemdFunctions.sd_bus_message_open_container!(message, type("a"), "o")
        for path in paths where result >= 0 { result = append(path, type: "o", to: message) }
        guard result >= 0 else { return result }
        return systemdFunctions.sd_bus_message_close_container!(message)
    }

    /// Reads `ao`; nil when the message holds something else.
    private static func readPaths(_ message: OpaquePointer) -> [String]? {
        guard systemdFunctions.sd_bus_message_enter_container!(message, type("a"), "o") > 0 else { return nil }
        var paths: [String] = []
        while let path = readString(message, type: "o") { paths.append(path) }
        guard systemdFunctions.sd_bus_message_exit_container!(message) >= 0 else { return nil }
        return paths
    }

    private static func readString(_ message: OpaquePointer, type: Character) -> String? {
        var text: UnsafePointer<CChar>?
        guard systemdFunctions.sd_bus_message_read_basic!(message, Self.type(type), &text) > 0, let text else { return nil }
        return String(cString: text)
    }

    /// `a{sv}`: the track's id (o), length (x), title and album (s), artists (as), url, cover and lyrics (s).
    private static func appendMetadata(_ track: MediaTrack?, to message: OpaquePointer) -> Int32 {
        var result = systemdFunctions.sd_bus_message_open_container!(message, type("a"), "{sv}")
        guard result >= 0 else { return result }
        func entry(_ key: String, _ signature: String, _ value: (OpaquePointer) -> Int32) {
            guard result >= 0 else { return }
            result = systemdFunctions.sd_bus_message_open_container!(message, type("e"), "sv")
            if result >= 0 { result = append(key, type: "s", to: message) }
            if result >= 0 { result = systemdFunctions.sd_bus_message_open_container!(message, type("v"), signature) }
            if result >= 0 { result = value(message) }
            if result >= 0 { result = systemdFunctions.sd_bus_message_close_container!(message) }
            if result >= 0 { result = systemdFunctions.sd_bus_message_close_container!(message) }
        }
        if let track {
            entry("mpris:trackid", "o") { append(track.id, type: "o", to: $0) }
            if let length = track.length {
                entry("mpris:length", "x") { message in
                    var value = length
                    return systemdFunctions.sd_bus_message_append_basic!(message, type("x"), &value)
                }
            }
            entry("xesam:title", "s") { append(track.title, type: "s", to: $0) }
            if !track.artists.isEmpty { entry("xesam:artist", "as") { append(track.artists, to: $0) } }
            if let album = track.album { entry("xesam:album", "s") { append(album, type: "s", to: $0) } }
            entry("xesam:url", "s") { append(track.url, type: "s", to: $0) }
            if let art = track.artURL { entry("mpris:artUrl", "s") { append(art, type: "s", to: $0) } }
            if let lyrics = track.lyrics { entry("xesam:asText", "s") { append(lyrics, type: "s", to: $0) } }
        }
        guard result >= 0 else { return result }
        return systemdFunctions.sd_bus_message_close_container!(message)
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(abs(code))) }

    private static func monotonicNow() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func writeLine(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// Why the player could not be published on the session bus.
public struct MediaPlayerServiceError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The bus connection and the table the C side calls through.
// Unchecked: both are touched by the creating thread until the bus thread starts, then only by it.
private final class BusConnection: @unchecked Sendable {
    let bus: OpaquePointer
    var target: UnsafeMutablePointer<DecibarMprisTarget>?
    init(bus: OpaquePointer) { self.bus = bus }
}
