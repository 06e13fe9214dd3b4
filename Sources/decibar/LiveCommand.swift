import ArgumentParser
import DecibarApp

extension Decibar {
    struct Live: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Open a window of animated bars that follow what the computer is playing.",
            discussion: """
                Listens to the monitor of the default output (or --source) and follows it when the \
                default output changes. If the audio server goes away, the window stays open, says \
                "waiting for audio server" and reconnects when it returns.
                Bars are shown when the audio is heard: the output's latency is measured from the \
                server and applied; --av-offset adds to it.
                Keys: m switches bars/spectrum/meter, s the next --shader-dir shader, \
                f toggles fullscreen, q or Esc quits.
                """)

        @OptionGroup var source: SourceOption

        @OptionGroup var display: DisplayOptions

        @Option(name: .long, help: ArgumentHelp(
            "Show the audio this much later (or earlier, if negative), in ms, on top of the output's own latency, which is measured from the server and applied by itself.",
            valueName: "ms"))
        var avOffset: Double = 0

        func validate() throws {
            guard avOffset.isFinite, abs(avOffset) <= 5000 else {
                throw ValidationError("--av-offset must be between -5000 and 5000 ms")
            }
            if let source = source.source, source.isEmpty {
                throw ValidationError("--source needs a name (see 'decibar devices')")
            }
        }

        func run() throws {
            try LiveView(source: source.source, display: display.settings,
                         avOffset: avOffset / 1000).run()
        }
    }
}
