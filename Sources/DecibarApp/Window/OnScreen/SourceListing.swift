import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// The sources a person can choose to hear (the default output, each output, each input, each app
/// playing now), asked of the sound server on a thread of its own every second while the list
/// shows: the window never waits for the server, and an app that starts appears by itself.
final class SourceListing: Sendable {
    private struct State {
        var entries: [PickerList.Entry]?
        var isRunning = true
    }

    private let state = Mutex(State())
    static let refreshSeconds = 1.0

    init() {
        Thread.detachNewThread { [self] in refresh() }
    }

    /// The latest list; nil until the server first answers.
    var entries: [PickerList.Entry]? { state.withLock { $0.entries } }

    func stop() { state.withLock { $0.isRunning = false } }

    private func refresh() {
        while state.withLock({ $0.isRunning }) {
            let entries = Self.entries(from: try? PulseDirectory.list(timeout: 2))
            state.withLock { $0.entries = entries }
            Thread.sleep(forTimeInterval: Self.refreshSeconds)
        }
    }

    /// The list's lines: choosing one says what `ctl set audio.source` or `audio.apps` would.
    static func entries(from list: AudioDeviceList?) -> [PickerList.Entry] {
        var entries = [PickerList.Entry(name: OnScreenText.defaultOutput, value: PickerKind.defaultSource)]
        guard let list else { return entries }
        entries += list.sinks.map { PickerList.Entry(name: OnScreenText.output($0.description), value: $0.name) }
        entries += list.sources.filter { $0.monitoredSinkName == nil }.map { PickerList.Entry(name: OnScreenText.input($0.description), value: $0.name) }
        var apps: [String] = []
        for playback in list.playbacks {
            guard let name = playback.appName ?? playback.binary, !apps.contains(name) else { continue }
            apps.append(name)
        }
        entries += apps.map { PickerList.Entry(name: OnScreenText.app($0), value: PickerKind.appPrefix + $0) }
        return entries
    }
}

/// Which server a libpulse tap talks to (PulseAudio, or PipeWire's pipewire-pulse), asked once on
/// a thread of its own the first time the stats show it.
final class SoundServerName: Sendable {
    private let name = Mutex<String?>(nil)

    init() {
        Thread.detachNewThread { [self] in
            let found = (try? PulseDirectory.list(timeout: 2)).map { OnScreenText.server($0.serverName) }
            name.withLock { $0 = found }
        }
    }

    /// "PulseAudio" or "pipewire-pulse"; nil until the server answers.
    var value: String? { name.withLock { $0 } }
}
