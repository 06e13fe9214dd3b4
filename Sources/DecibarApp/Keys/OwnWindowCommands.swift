import DecibarCore
import DecibarRender

/// What a window of its own (live, play) does with its keys' commands: the window's, the
/// picture's and the player's mean what they mean to the daemon (the daemon's window runs its
/// keys as `ctl` commands). A setting changes where this window can take it at once.
struct OwnWindowCommands {
    var keys: KeyBindings
    /// The settings in force, for `cycle` (what a command changed included).
    var settings: Configuration
    /// Draws the picture anew from new settings (live); nil where a window cannot (play).
    var redraw: ((Configuration) throws(ControlFailure) -> Void)?
    /// What the window shows over its picture: help, stats, the lists, and what a command changed.
    var onScreen: OnScreenDisplay?

    /// Runs the commands of the frame's keys; the last failure, said for a moment by the window.
    mutating func run(_ frame: inout FrameLoop.Frame, surface: any Surface, visualizer: Visualizer, player: PlayerScreen?) -> String? {
        onScreen?.record(frame)
        // Most frames have no input: nothing more to do, and nothing allocated.
        guard !frame.events.isEmpty else { return nil }
        let contexts = KeyBindings.contexts(mode: visualizer.mode, player: player != nil)
        var commands: [ControlCommand] = onScreen?.handle(&frame, contexts: contexts, shownPreset: visualizer.shownName) ?? []
        for case .key(let chord) in frame.events {
            guard let command = keys.command(for: chord, in: contexts) else { continue }
            commands.append(command)
        }
        var failure: String?
        for command in commands {
            do {
                try perform(command, frame: &frame, surface: surface, visualizer: visualizer, player: player)
                onScreen?.commandRan(command)
            } catch {
                failure = error.message
            }
        }
        if let failure, let onScreen, onScreen.showsToastsEnabled {
            onScreen.say(failure, now: frame.now)
            return nil
        }
        return failure
    }

    mutating func perform(_ command: ControlCommand, frame: inout FrameLoop.Frame, surface: any Surface, visualizer: Visualizer,
                          player: PlayerScreen?) throws(ControlFailure) {
        switch command {
        case .close, .quit: frame.closes = true
        case .fullscreen: surface.toggleFullscreen()
        case .set(let name, let value): try set(try Self.key(named: name), to: value, visualizer: visualizer, player: player)
        case .cycle(let name):
            let key = try Self.key(named: name)
            let current = player?.currentValue(of: key) ?? visualizer.currentValue(of: key) ?? settings[key]
            let next: JSONValue
            do { next = try key.cycled(from: current) } catch { throw ControlFailure(.invalidParameter, error.message) }
            try set(key, to: next, visualizer: visualizer, player: player)
        default:
            if try onScreen?.perform(command, now: frame.now, shownPreset: visualizer.shownName) == true { return }
            if case .preset(.named) = command, visualizer.mode != .milkdrop {
                // A preset chosen from the list while another mode shows: Milkdrop first.
                _ = try visualizer.perform(.mode(.named(VisualMode.milkdrop.rawValue)))
            }
            if try visualizer.perform(command) { return }
            if let player, try player.session.perform(command) { return }
            throw ControlFailure(.commandFailed, "this window has no player: the key's command is for play or the daemon")
        }
    }

    private mutating func set(_ key: ConfigKey, to value: JSONValue, visualizer: Visualizer, player: PlayerScreen?) throws(ControlFailure) {
        var changed = settings
        do { try changed.set(key, to: value) } catch { throw ControlFailure(.invalidParameter, error.message) }
        if key == ConfigSchema.display.mode.key {
            _ = try visualizer.perform(.mode(.named(changed[ConfigSchema.display.mode].rawValue)))
        } else if let player, try player.apply(key, from: changed) {
        } else if key.section == ConfigSection.display.rawValue, let redraw {
            try redraw(changed)
        } else {
            throw ControlFailure(.commandFailed, "set: \(key.path) takes effect in the daemon's window, or when this window opens again")
        }
        settings = changed
    }

    private static func key(named name: String) throws(ControlFailure) -> ConfigKey {
        do { return try ConfigSchema.key(named: name) } catch { throw ControlFailure(.optionNotFound, error.message) }
    }
}
