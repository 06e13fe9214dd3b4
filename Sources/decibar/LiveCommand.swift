import ArgumentParser
import DecibarAudio
import DecibarCore
import Foundation

extension Decibar {
    struct Live: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a window of animated bars that follow what the computer is playing.",
            discussion: """
                Listens to the monitor of the default output (or --source) and follows it when the
                default output changes. If the audio server goes away, the window stays open, says
                "waiting for audio server" and reconnects when it returns.
                Keys: f toggles fullscreen, q or Esc quits.
                """)

        @OptionGroup var source: SourceOption

        @OptionGroup var display: DisplayOptions

        func validate() throws {
            if let source = source.source, source.isEmpty {
                throw ValidationError("--source needs a name (see 'decibar devices')")
            }
        }

        func run() throws {
            try LiveView(target: source.source.map(TapTarget.named) ?? .defaultSinkMonitor, display: display).run()
        }
    }
}
