import DecibarCore
import Foundation

/// Every string the on-screen display shows, in one place (a translation, or a change of words,
/// happens here).
enum OnScreenText {
    static let helpTitle = "Keys"
    static func helpPage(_ page: Int, of pages: Int) -> String { "page \(page + 1) of \(pages): ? for the next" }
    static let helpFooter = "? or F1 closes this; keys rebind in the config's [keys] (decibar keys lists them)"

    static func heading(_ context: KeyContext) -> String {
        switch context {
        case .window: "Window"
        case .player: "Player"
        case .mode(let mode): (mode.details?.title ?? mode.rawValue)
        }
    }

    static func pickerTitle(_ kind: PickerKind, count: Int, total: Int) -> String {
        count == total ? "\(kind.title) (\(total))" : "\(kind.title) (\(count) of \(total))"
    }
    static let pickerPrompt = "type to search"
    static let pickerFooter = "Enter chooses · Esc closes · Tab next list · * favourite · Ctrl+C copies"
    static let pickerNothing = "nothing matches"
    static let pickerLoading = "looking for sources..."
    static let favouriteMark = "* "

    static func fps(_ summary: FrameStatistics.Summary) -> String {
        String(format: "%.1f fps   frame %.1f ms (p90 %.1f ms)   late %d", summary.framesPerSecond, summary.medianFrameTime * 1000,
               summary.p90FrameTime * 1000, summary.lateFrames)
    }
    static let fpsWaiting = "fps: measuring..."
    static func picture(_ facts: OnScreenDisplay.Facts) -> String {
        "mode \(facts.mode.rawValue)" + (facts.pictureName.map { "   \(facts.mode == .milkdrop ? "preset" : "shader") \($0)" } ?? "")
    }
    static func source(_ facts: OnScreenDisplay.Facts) -> String {
        "source \(facts.source)" + (facts.backend.map { "   via \($0)" } ?? "")
    }
    static func delay(_ seconds: Double) -> String { String(format: "audio to screen %.0f ms", seconds * 1000) }
    static func cpu(_ share: Double) -> String { String(format: "CPU %.0f %%", share * 100) }

    static func modeToast(_ mode: VisualMode) -> String { "Mode: \((mode.details?.title ?? mode.rawValue))" }
    static func presetToast(_ name: String) -> String { "Preset: \(name)" }
    static func shaderToast(_ name: String) -> String { "Shader: \(name)" }
    static func themeToast(_ theme: String) -> String { "Theme: \(theme)" }
    static func sourceToast(_ source: String) -> String { "Source: \(source)" }
    static func rateToast(_ rate: Double, pitch: Double) -> String { RateAndPitch(rate: rate, pitch: pitch).label }
    static func volumeToast(_ volume: Double) -> String { String(format: "Volume %.0f %%", volume) }
    static func favouriteToast(_ name: String, marked: Bool) -> String { marked ? "Favourite: \(name)" : "No longer a favourite: \(name)" }
    static func copiedToast(_ name: String) -> String { "Copied: \(name)" }
    static let noClipboard = "no clipboard here: the name is in decibar ctl preset"
    static let noPreset = "no preset shows"
    static func droppedToast(_ name: String) -> String { "Playing \(name)" }
    static func queuedToast(_ name: String) -> String { "Added \(name)" }

    static let playing = "Pause"
    static let paused = "Play"
    static func controllerTime(_ position: Double, _ duration: Double) -> String {
        duration > 0 ? "\(TimeLabel.text(seconds: position)) / \(TimeLabel.text(seconds: duration))" : TimeLabel.text(seconds: position)
    }
    static func controllerVolume(_ volume: Double) -> String { String(format: "vol %.0f%%", volume) }
    static func controllerRate(_ rate: Double) -> String { String(format: "%g×", rate) }
    static func controllerTheme(_ theme: String) -> String { "theme \(theme)" }

    static func playerSource(_ title: String?) -> String { title.map { "player: \($0)" } ?? "player" }
    static let pipeWireNative = "PipeWire (native)"
    static let libpulse = "libpulse"
    static func server(_ name: String) -> String { name.contains("PipeWire") ? "pipewire-pulse" : "PulseAudio" }

    static let defaultOutput = "Default output (what plays now)"
    static func output(_ description: String) -> String { "Output: \(description)" }
    static func input(_ description: String) -> String { "Input: \(description)" }
    static func app(_ name: String) -> String { "App: \(name)" }

    /// Lower case, accents dropped: how a search compares names.
    static let fold: PickerSearch.Folding = { $0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil) }
}
