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
            }
        }
    }

    /// One command; its reply's data, or why it failed.
    func execute(_ command: ControlCommand, from client: ControlClientHandle) throws(ControlFailure) -> JSONValue? {
        switch command {
        case .getStatus:
            return status
        case .protocolVersion:
            return .number(Double(ControlCommand.currentProtocolVersion))
        case .show:
            if let failure = show() { throw failure }
        case .hide:
            hide()
        case .toggleWindow:
            if isShown { hide() } else if let failure = show() { throw failure }
        case .set(let name, let value):
            try set(name, to: value)
        case .get(let name):
            let key: ConfigKey
            do { key = try ConfigSchema.key(named: name) } catch { throw ControlFailure(.optionNotFound, error.message) }
            if key.path == "display.mode", let visualizer { return .string(visualizer.mode.rawValue) }
            return configuration[key.path] ?? .null
        case .open(let paths, let append):
            try open(paths, append: append)
        case .play:
            try player().play()
        case .pause:
            try player().pause()
        case .cyclePause:
            let player = try player()
            if player.isPaused { player.play() } else { player.pause() }
        case .stop:
            // Playback stops and the playhead returns to the start; the playlist stays.
            try player().pause()
            session?.seek(to: 0)
        case .seek(let seconds, let relative):
            guard let session else { throw Self.nothingOpen }
            _ = try player()
            session.seek(to: relative ? session.playhead + seconds : seconds)
        case .next:
            guard let session else { throw Self.nothingOpen }
            session.next()
            if session.isOver { session.close() }
        case .previous:
            guard let session else { throw Self.nothingOpen }
            session.previous()
        case .subscribe(let subscription):
            hub.add(client, subscription)
            updateTap()
            if subscription.kind == .status { hub.publishStatus(status) }
        case .unsubscribe(let kind):
            hub.remove(client, kind: kind)
            updateTap()
        case .reloadConfig:
            if let failure = reloadConfiguration(reason: "ctl reload_config") { throw failure }
        case .quit:
            stopping = "ctl quit"
        case .screenshot:
            break
        }
        publishStatusIfChanged()
        return nil
    }

    static let nothingOpen = ControlFailure(.commandFailed, "nothing is open in the player: decibar ctl open FILE...")

    private func player() throws(ControlFailure) -> PulsePlayer {
        guard let player = session?.player else { throw Self.nothingOpen }
        return player
    }

    private func set(_ name: String, to value: JSONValue) throws(ControlFailure) {
        let key: ConfigKey
        do {
            key = try ConfigSchema.key(named: name)
            try runtime.set(key, to: value)
        } catch {
            throw ControlFailure(error.message.hasPrefix("no setting") ? .optionNotFound : .invalidParameter, error.message)
        }
        applyConfiguration()
        if key.path == "display.mode", let mode = display.mode as VisualMode?, visualizer != nil {
            // The mode switches in place: the bars keep moving.
            visualizer?.mode = mode
        } else if key.section == "display" {
            rebuildVisualizer()
        } else if key.section == "player", let session, let window {
            playerScreen = try? makePlayerScreen(for: session, window: window, shaders: ShaderLibrary())
        } else if key.path == "audio.source" {
            closeTap()
            updateTap()
        }
        if key.section == "player" && key.name == "loop" { session?.loops = configuration.bool("player.loop") }
    }

    private func open(_ paths: [String], append: Bool) throws(ControlFailure) {
        if append, let session {
            session.append(paths)
            if session.player == nil { session.open(from: session.files.count - paths.count) }
        } else {
            session?.close()
            let session = PlaySession(files: paths, loops: configuration.bool("player.loop"))
            self.session = session
            session.open(from: 0)
            if let window {
                playerScreen = try? makePlayerScreen(for: session, window: window, shaders: ShaderLibrary())
            }
        }
        guard let session, session.player != nil else {
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
            "theme": .string(display.theme),
            "clients": .number(Double(server?.clientCount ?? 0)),
            "subscribers": .number(Double(hub.count)),
        ]
        var tapMembers: [String: JSONValue] = ["state": .string("closed")]
        if let tap {
            switch tap.status {
            case .connecting: tapMembers["state"] = .string("connecting")
            case .capturing(let device):
                tapMembers["state"] = .string("capturing")
                tapMembers["device"] = .string(device.description)
            case .waitingForServer(let reason): tapMembers = ["state": .string("waiting for server"), "reason": .string(reason)]
            case .waitingForDevice(let reason): tapMembers = ["state": .string("waiting for device"), "reason": .string(reason)]
            }
        }
        members["tap"] = .object(tapMembers)
        var player: [String: JSONValue] = ["state": .string(playerState)]
        if let session {
            player["playlist"] = .array(session.files.map(JSONValue.string))
            if session.player != nil {
                session.refreshDuration()
                player["index"] = .number(Double(session.index))
                player["file"] = .string(session.files[session.index])
                player["position"] = .number((session.playhead * 1000).rounded() / 1000)
                player["duration"] = .number((session.duration * 1000).rounded() / 1000)
            }
        }
        members["player"] = .object(player)
        if let configProblem { members["config_error"] = .string(configProblem) }
        return .object(members)
    }

    private var playerState: String {
        guard let player = session?.player else { return "idle" }
        if player.isPaused { return session?.playhead == 0 ? "stopped" : "paused" }
        return "playing"
    }

    /// The parts of the status whose change is worth an event (the position moves all the time).
    struct StatusKey: Equatable {
        var shown: Bool
        var mode: VisualMode?
        var theme: String
        var player: String
        var track: Int
        var fileCount: Int
        var tapOpen: Bool
    }

    func publishStatusIfChanged() {
        let key = StatusKey(shown: isShown, mode: visualizer?.mode ?? display.mode, theme: display.theme, player: playerState,
                            track: session?.index ?? -1, fileCount: session?.files.count ?? 0, tapOpen: tap != nil)
        guard key != lastStatusKey else { return }
        lastStatusKey = key
        hub.publishStatus(status)
    }
}
