import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the player's view of a file to a video, offline and frame-exact.",
            discussion: CommandHelp.render)

        @Argument(help: ArgumentHelp("The audio file to render.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: OUT.mp4, .mov, .webm, .gif or a folder/.", valueName: "out"))
        var output: String

        @Option(name: .long, help: ArgumentHelp("Frames per second, 1 to 240.", valueName: "n"))
        var fps = 30

        @Option(name: .long, help: ArgumentHelp("Render only the first this many seconds; the scrubber then spans just that part (and only it is analyzed).", valueName: "seconds"))
        var duration: Double?

        @OptionGroup var display: DisplayOptions

        @OptionGroup var scrubber: ScrubberOptions

        func validate() throws {
            guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240") }
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            if display.fullscreen == true { throw ValidationError("--fullscreen does not apply to render (there is no window)") }
            if display.exitAfter != nil { throw ValidationError("--exit-after does not apply to render; use --duration") }
            if display.record != nil { throw ValidationError("--record does not apply to render; -o is the recording") }
            if display.screenshot != nil { throw ValidationError("--screenshot does not apply to render; render to a folder/ for PNG frames") }
            guard let kind = RenderOutput.kind(of: output) else {
                throw ValidationError("-o \(output.escapingControlCharacters): unknown kind of output; use \(RenderOutput.supported)")
            }
            try checkOutput(output, option: "-o", kind: kind == .pngFolder ? .folder : .file, inputs: [file])
            if let size = display.size, size.width % 2 != 0 || size.height % 2 != 0 {
                throw ValidationError("--size must be even in both directions for video")
            }
        }

        func run() throws {
            try OfflineRender(file: file, output: output, fps: fps, duration: duration, display: try display.settings(over: Configuration()),
                              scrubber: try scrubber.settings(over: Configuration())).run()
        }
    }
}
