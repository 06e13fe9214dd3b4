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

        @OptionGroup var config: ConfigFileOption

        @Option(name: .long, help: ArgumentHelp(
            "Show the audio this much later (or earlier, if negative), in ms, on top of the output's own latency, which is measured from the server and applied by itself.",
            valueName: "ms"))
        var avOffset: Double?

        func validate() throws {
            if let avOffset, !(avOffset.isFinite && abs(avOffset) <= 5000) {
                throw ValidationError("--av-offset must be between -5000 and 5000 ms")
            }
            if let source = source.source, source.isEmpty {
                throw ValidationError("--source needs a name (see 'decibar devices')")
            }
        }

        func run() throws {
            let file = try config.load()
            let source = self.source.source ?? file.string("audio.source")
            let offset = avOffset ?? file.number("audio.av_offset") ?? 0
            try LiveView(source: source, display: display.settings(over: file), avOffset: offset / 1000,
                         reload: ConfigReload(path: config.path, overrides: display.layer)).run()
        }
    }
}
