import DecibarAudio
import DecibarCore

extension OnScreenDisplay.Facts {
    /// What a window on a live tap shows and hears.
    init(visualizer: Visualizer, tap: any LiveTap, delay: Double) {
        let source: String = switch tap.target {
        case .apps(let selection, _): selection.summary
        default: tap.status.summary
        }
        self.init(mode: visualizer.mode, pictureName: visualizer.shownName, source: source, backend: Self.backend(tap.backend),
                  theme: visualizer.theme, delay: delay, player: nil)
    }

    /// What a window on the player shows and hears.
    init(visualizer: Visualizer, session: PlaySession) {
        let player = OnScreenDisplay.PlayerFacts(isPlaying: session.status == .playing, position: session.playhead, duration: session.duration,
                                                 volume: session.volume, rate: session.rateAndPitch.rate, pitch: session.rateAndPitch.pitch)
        let title = session.hasTrack ? (session.files[session.index] as String).split(separator: "/").last.map(String.init) : nil
        self.init(mode: visualizer.mode, pictureName: visualizer.shownName, source: OnScreenText.playerSource(title), backend: nil,
                  theme: visualizer.theme, delay: session.heard.delay, player: player)
    }

    static func backend(_ backend: AudioBackendChoice) -> String {
        switch backend {
        case .pipewire: OnScreenText.pipeWireNative
        case .pulse, .auto: OnScreenText.libpulse
        }
    }
}
