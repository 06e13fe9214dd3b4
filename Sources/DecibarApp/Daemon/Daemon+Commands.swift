import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

extension Daemon {
    /// Carries out everything posted since the last look, in order.
    func handleInbox() {
        for item in inbox.take() {
            switch item {
            case .request(let request, let client):
                if case .screenshot(let path) = request.command {
                    // Answered once the next frame is drawn.
                    if isShown && window != nil {
                        pendingScreenshots.append((path, request.id, client))
                    } else {
                        client.reply(ControlMessage.failure(id: request.id, ControlFailure(.commandFailed, "the window is hidden: decibar ctl show first")))
                    }
                    continue
                }
                let reply: [UInt8]
                do {
                    reply = ControlMessage.success(id: request.id, data: try execute(request.command, from: client))
                    onScreen?.commandRan(request.command)
                } catch {
                    reply = ControlMessage.failure(id: request.id, error)
                }
                client.reply(reply)
            case .reply(let reply, let client):
                client.reply(reply)
            case .clientLeft(let client):
                hub.remove(client)
            case .stop(let signal):
                stopping = signal
            case .reloadConfig(let reason):
                _ = reloadConfiguration(reason: reason)
            case .media(let request):
                handle(request)
            }
        }
    }

    /// One command; its reply's data, or why it failed. `client` is nil for the window's own keys.
    func execute(_ command: ControlCommand, from client: ControlClientHandle?) throws(ControlFailure) -> JSONValue? {
        switch command {
        case .getStatus:
            return status
        case .protocolVersion:
            return .number(Double(ControlCommand.currentProtocolVersion))
        case .show:
            if let failure = show() { throw failure }
        case .hide, .close:
            hide()
        case .toggleWindow:
            if isShown { hide() } else if let failure = show() { throw failure }
        case .fullscreen:
            guard isShown, let window else { throw ControlFailure(.commandFailed, "fullscreen: the window is hidden: decibar ctl show first") }
            window.toggleFullscreen()
        case .set(let name, let value):
            try set(name, to: value)
        case .cycle(let name):
            let key: ConfigKey
            do { key = try ConfigSchema.key(named: name) } catch { throw ControlFailure(.optionNotFound, error.message) }
            let current = visualizer?.currentValue(of: key) ?? configuration[key]
            let next: JSONValue
            do { next = try key.cycled(from: current) } catch { throw ControlFailure(.invalidParameter, error.message) }
            try set(key.path, to: next)
        case .mode(.named(let name)):
            try set(ConfigSchema.display.mode.key.path, to: .string(name))
        case .preset(.shown):
            guard let name = visualizer?.shownName else { throw ControlFailure(.commandFailed, "preset: no preset shows (the mode is \((visualizer?.mode ?? display.mode).rawValue))") }
            return .string(name)
        case .keys, .stats, .picker, .preset(.toggleFavourite):
            guard isShown, let onScreen else { throw ControlFailure(.commandFailed, "the window is hidden: decibar ctl show first") }
            _ = try onScreen.perform(command, now: MonotonicClock.now(), shownPreset: visualizer?.shownName)
        case .preset(.named) where visualizer != nil && visualizer?.mode != .milkdrop:
            // A preset chosen while another mode shows: Milkdrop first, as the list does.
            try set(ConfigSchema.display.mode.key.path, to: .string(VisualMode.milkdrop.rawValue))
            _ = try visualizer?.perform(command)
        case .mode, .nextShader, .preset:
            guard let visualizer else { throw ControlFailure(.commandFailed, "the window has not been shown yet: decibar ctl show first") }
            _ = try visualizer.perform(command)
        case .get(let name):
            let key: ConfigKey
            do { key = try ConfigSchema.key(named: name) } catch { throw ControlFailure(.optionNotFound, error.message) }
            // What the picture uses now (the preset it shows), else what is set.
            return visualizer?.currentValue(of: key) ?? configuration[key] ?? .null
        case .open(let paths, let append):
            try open(paths, append: append)
        case .subscribe(let subscription):
            guard let client else { throw ControlFailure(.commandFailed, "subscribe: only a connected client can subscribe") }
            hub.add(client, subscription)
            updateTap()
            if subscription.kind == .status { hub.publishStatus(status) }
        case .unsubscribe(let kind):
            guard let client else { break }
            hub.remove(client, kind: kind)
            updateTap()
        case .reloadConfig:
            if let failure = reloadConfiguration(reason: "ctl reload_config") { throw failure }
        case .quit:
            stopping = "ctl quit"
        case .screenshot:
            break
        default:
            let session = try player()
            _ = try session.perform(command)
            if case .next = command, session.isOver { session.close() }
        }
        publishStatusIfChanged()
        return nil
    }

    /// The player's settings it takes as they are, without drawing its screen anew.
    static let appliedInPlace: [ConfigKey] = [ConfigSchema.player.loop.key, ConfigSchema.player.shuffle.key, ConfigSchema.player.volume.key,
                                             ConfigSchema.player.rate.key, ConfigSchema.player.pitch.key, ConfigSchema.player.decibels.key]

    static let nothingOpen = ControlFailure(.commandFailed, "nothing is open in the player: decibar ctl open FILE...")

    /// The player, when a track is open (playing, paused or stopped).
    private func player() throws(ControlFailure) -> PlaySession {
        guard let session, session.hasTrack else { throw Self.nothingOpen }
        return session
    }

    /// What the desktop asked for (MPRIS).
    func handle(_ request: MediaRequest) {
        switch request {
        case .raise:
            if let failure = show() { log.error("cannot show the window: \(failure.message)") }
        case .quit:
            stopping = "MPRIS Quit"
        case .open(let path):
            do { try open([path], append: false) } catch { log.error("cannot open \(path): \(error.message)") }
        default:
            session?.handle(request)
            if let session, session.isOver { session.close() }
        }
        publishStatusIfChanged()
    }

    private func set(_ name: String, to value: JSONValue) throws(ControlFailure) {
        let key: ConfigKey
        let before = runtime
        do {
            key = try ConfigSchema.key(named: name)
            try runtime.set(key, to: value)
        } catch {
            throw ControlFailure(error.message.hasPrefix("no setting") ? .optionNotFound : .invalidParameter, error.message)
        }
        applyConfiguration()
        let rows = ConfigSchema.display
        if [rows.layer.key, rows.monitor.key, rows.anchor.key, rows.stripHeight.key, rows.margin.key].contains(key) {
            // Where the window lives is decided as it is made; one that cannot be made (a monitor
            // not there) leaves the window as it was.
            let wasShown = isShown
            if let failure = reopenWindow() {
                runtime = before
                applyConfiguration()
                if wasShown { _ = show() }
                throw failure
            }
        } else if key == ConfigSchema.display.mode.key, let mode = display.mode as VisualMode?, visualizer != nil {
            // The mode switches in place: the bars keep moving. One that cannot be drawn here
            // (one whose library is not installed) leaves the picture as it was.
            do {
                try visualizer?.show(mode)
            } catch {
                runtime = before
                applyConfiguration()
                throw ControlFailure(.commandFailed, error.description)
            }
        } else if key.section == ConfigSection.display.rawValue {
            rebuildVisualizer()
        } else if key.section == ConfigSection.player.rawValue, !Self.appliedInPlace.contains(key), let session, let window {
            playerScreen = try? makePlayerScreen(for: session, surface: window, shaders: ShaderLibrary())
        } else if key == ConfigSchema.audio.source.key || key == ConfigSchema.audio.apps.key || key == ConfigSchema.audio.excludeApps.key
                    || key == ConfigSchema.audio.backend.key {
            closeTap()
            updateTap()
        }
        if key == ConfigSchema.player.loop.key { session?.loop = loopMode }
        if key == ConfigSchema.player.decibels.key { playerScreen?.decibels = configuration[ConfigSchema.player.decibels] }
        if key == ConfigSchema.player.shuffle.key { session?.setShuffle(configuration[ConfigSchema.player.shuffle]) }
        if key == ConfigSchema.player.volume.key { session?.setVolume(volume) }
        if key == ConfigSchema.player.rate.key || key == ConfigSchema.player.pitch.key { session?.setRateAndPitch(rateAndPitch) }
    }

    private func open(_ paths: [String], append: Bool) throws(ControlFailure) {
        if append, let session {
            session.append(paths)
            if session.player == nil { session.open(from: session.files.count - paths.count) }
        } else {
            session?.close()
            let session = PlaySession(files: paths, loop: loopMode, volume: volume, rateAndPitch: rateAndPitch, parts: playerParts)
            session.streamSettings = StreamSettings(configuration: configuration)
            session.videoLayout = ScrubberSettings(configuration: configuration).videoLayout
            if configuration[ConfigSchema.player.shuffle] { session.setShuffle(true) }
            let announcer = self.announcer
            session.beatListener = { announcer.announce($0, from: .player) }
            session.unheardDropped = { announcer.discardWaiting() }
            session.findsBeats = wantsBeats
            session.outputs = outputs
            self.session = session
            session.open(from: 0)
            if let window {
                playerScreen = try? makePlayerScreen(for: session, surface: window, shaders: ShaderLibrary())
            }
        }
        guard let session, session.hasTrack else {
            self.session = nil
            playerScreen = nil
            throw ControlFailure(.commandFailed, "none of the files could be played (the daemon's log says why)")
        }
    }

    // MARK: Status

    /// What `get_status` answers and status subscribers receive.
    var status: JSONValue {
        var members: [String: JSONValue] = [
            "pid": .number(Double(getpid())),
            "socket": .string(socketPath),
            "config": .string(settings.configPath),
            "window": .string(isShown ? "shown" : "hidden"),
            "mode": .string((visualizer?.mode ?? display.mode).rawValue),
            "preset": visualizer?.shownName.map(JSONValue.string) ?? .null,
            "theme": .string(display.theme),
            "clients": .number(Double(server?.clientCount ?? 0)),
            "subscribers": .number(Double(hub.count)),
        ]
        if isShown, let frameRates {
            members["frame_rate"] = .number((frameRates.shown * 100).rounded() / 100)
            members["refresh_rate"] = .number((frameRates.display * 100).rounded() / 100)
        }
        // What the stats overlay (i) says, over the last second.
        if isShown, let figures = onScreen?.figures(at: MonotonicClock.now()) {
            if let frames = figures.frames {
                let milliseconds = { (seconds: Double) in JSONValue.number((seconds * 10_000).rounded() / 10) }
                members["frames"] = .object(["per_second": .number((frames.framesPerSecond * 10).rounded() / 10),
                                             "median_ms": milliseconds(frames.medianFrameTime), "p90_ms": milliseconds(frames.p90FrameTime),
                                             "late": .number(Double(frames.lateFrames))])
            }
            if let cpu = figures.cpu { members["cpu"] = .number((cpu * 1000).rounded() / 1000) }
        }
        // How the window's thread is scheduled (raised where allowed), once a window opened.
        if let priority = DrawingPriority.summary { members["window_priority"] = .string(priority) }
        var tapMembers: [String: JSONValue] = ["state": .string("closed")]
        if let tap {
            switch tap.status {
            case .connecting: tapMembers["state"] = .string("connecting")
            case .capturing(let device):
                tapMembers["state"] = .string("capturing")
                tapMembers["device"] = .string(device.description)
            case .waitingForServer(let reason): tapMembers = ["state": .string("waiting for server"), "reason": .string(reason)]
            case .waitingForDevice(let reason): tapMembers = ["state": .string("waiting for device"), "reason": .string(reason)]
            case .waitingForApp(let text): tapMembers = ["state": .string("waiting for app"), "reason": .string(text)]
            }
            if case .apps(let selection, _) = tap.target { tapMembers["heard"] = .string(selection.summary) }
            // Buffers handed on, and dropped because the daemon fell behind (nothing should be).
            tapMembers["buffers"] = .number(Double(tap.deliveredBufferCount))
            tapMembers["dropped_buffers"] = .number(Double(tap.droppedBufferCount))
            tapMembers["backend"] = .string(tap.backend.rawValue)
        }
        members["tap"] = .object(tapMembers)
        let tempo = announcer.tempo
        members["tempo"] = .object(["bpm": tempo.bpm.map { .number(($0 * 100).rounded() / 100) } ?? .null,
                                    "confidence": .number((tempo.confidence * 100).rounded() / 100)])
        members["mpris"] = .string(media?.busName ?? mediaProblem ?? "off")
        if let outputs = outputs.current {
            members["outputs"] = .object(["source": .string(outputs.source == .player ? "player" : "tap"),
                                          "sending": .array(outputs.statusLines.map(JSONValue.string))])
        }
        var player: [String: JSONValue] = ["state": .string(playerState)]
        if let session {
            player["playlist"] = .array(session.files.map(JSONValue.string))
            player["loop"] = .string(session.loop.rawValue)
            player["shuffle"] = .bool(session.shuffle)
            player["volume"] = .number(session.volume)
            player["rate"] = .number(session.rateAndPitch.rate)
            player["pitch"] = .number(session.rateAndPitch.pitch)
            if session.hasTrack {
                session.refreshDuration()
                player["index"] = .number(Double(session.index))
                player["file"] = .string(session.files[session.index])
                player["position"] = .number((session.playhead * 1000).rounded() / 1000)
                player["duration"] = .number((session.duration * 1000).rounded() / 1000)
                player["chapters"] = .array(session.chapters.map {
                    .object(["title": .string($0.title), "start": .number(($0.start * 1000).rounded() / 1000)])
                })
                if session.loopPoints.start != nil || session.loopPoints.end != nil {
                    let seconds = { (value: Double?) in value.map { JSONValue.number(($0 * 1000).rounded() / 1000) } ?? .null }
                    player["ab_loop"] = .object(["start": seconds(session.loopPoints.start), "end": seconds(session.loopPoints.end)])
                } else {
                    player["ab_loop"] = .null
                }
                // The stretch the scrubber shows (all of the track unless zoomed).
                let view = session.view
                player["view"] = .object(["start": .number((view.start * 1000).rounded() / 1000),
                                          "end": .number((view.end * 1000).rounded() / 1000)])
                // This track's stretches of silence: the decoder fell behind, or the machine did.
                player["underruns"] = .number(Double(session.underrunCount))
                player["dropouts"] = .number(Double(session.dropoutCount))
                // How the threads that keep its sound going are scheduled (real-time where allowed).
                player["priority"] = .string(RealtimePriority.shared.summary)
                if let stream = session.streamSnapshot {
                    var members: [String: JSONValue] = ["live": .bool(stream.isEndless), "complete": .bool(stream.isComplete),
                                                        "downloaded_bytes": .number(Double(stream.held.count)),
                                                        "buffering_count": .number(Double(session.bufferingCount))]
                    if let total = stream.total, !stream.isEndless { members["total_bytes"] = .number(Double(total)) }
                    if let title = stream.title { members["title"] = .string(title) }
                    if let station = stream.station { members["station"] = .string(station) }
                    if let failure = stream.failure { members["error"] = .string(failure) }
                    player["stream"] = .object(members)
                }
                if let video = session.video, let info = video.info {
                    // Frames shown on time and dropped (late) since the track opened.
                    let counts = video.counts
                    var members: [String: JSONValue] = ["width": .number(Double(info.width)),
                                                        "height": .number(Double(info.height)),
                                                        "still": .bool(info.isStill),
                                                        "shown": .number(Double(counts.shown)),
                                                        "dropped": .number(Double(counts.dropped))]
                    if let rate = info.frameRate { members["fps"] = .number((rate * 1000).rounded() / 1000) }
                    player["video"] = .object(members)
                }
            }
        }
        members["player"] = .object(player)
        if let configProblem { members["config_error"] = .string(configProblem) }
        return .object(members)
    }

    private var playerState: String { (session?.status ?? .idle).rawValue }

    var loopMode: LoopMode { configuration[ConfigSchema.player.loop] }
    var volume: Double { configuration[ConfigSchema.player.volume] }
    var rateAndPitch: RateAndPitch {
        RateAndPitch(rate: configuration[ConfigSchema.player.rate], pitch: configuration[ConfigSchema.player.pitch])
    }

    /// The parts of the status whose change is worth an event (the position moves all the time).
    struct StatusKey: Equatable {
        var shown: Bool
        var mode: VisualMode?
        var preset: String?
        var theme: String
        var player: String
        var track: Int
        var fileCount: Int
        var tapOpen: Bool
        var loop: LoopMode
        var volume: Double
        var rateAndPitch: RateAndPitch
        var frameRate: Double?
    }

    func publishStatusIfChanged() {
        let key = StatusKey(shown: isShown, mode: visualizer?.mode ?? display.mode, preset: visualizer?.shownName, theme: display.theme, player: playerState,
                            track: session?.index ?? -1, fileCount: session?.files.count ?? 0, tapOpen: tap != nil,
                            loop: session?.loop ?? .none, volume: session?.volume ?? PlayerVolume.defaultPercent,
                            rateAndPitch: session?.rateAndPitch ?? .normal, frameRate: isShown ? frameRates?.shown : nil)
        guard key != lastStatusKey else { return }
        lastStatusKey = key
        hub.publishStatus(status)
    }
}
