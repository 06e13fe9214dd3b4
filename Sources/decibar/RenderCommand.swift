import ArgumentParser
import DecibarApp
import DecibarCore

extension Decibar {
    struct Render: ParsableCommand, SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the player's view of a file to a video, offline and frame-exact.",
            discussion: CommandHelp.render)
        static let settingCommand = SettingCommand.render

        @Argument(help: ArgumentHelp("The audio file to render.", valueName: "file"))
        var file: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: OUT.mp4, .mov, .webm, .gif or a folder/.", valueName: "out"))
        var output: String

        @Option(name: .long, help: ArgumentHelp("Frames per second, 1 to 240.", valueName: "n"))
        var fps = 30

        @Option(name: .long, help: ArgumentHelp("Render only the first this many seconds; the scrubber then spans just that part (and only it is analyzed).", valueName: "seconds"))
        var duration: Double?

        @Option(name: .long, help: ArgumentHelp("Words drawn on time: a SubRip .srt, WebVTT .vtt or LRC .lrc file (LRC's word times highlight each word as it is sung), or none. Unset: a file beside the audio with its name and one of those extensions, if there is one.", valueName: "file"))
        var captions: String?

        @Flag(name: .long, help: "Also put the captions in the video as a soft subtitle track (mov_text in .mp4 and .mov, WebVTT in .webm), for players to show or hide.")
        var captionsTrack = false

        @Option(name: .long, help: ArgumentHelp("The cover drawn beside the bars (or in the ring of --layout radial): a picture, or none. Unset: a cover, folder, front or album picture beside the audio, else the art embedded in it.", valueName: "file"))
        var cover: String?

        @Option(name: .long, help: ArgumentHelp("The title drawn with the cover; \"\" for none. Unset: the file's title tag, else the lyrics' [ti:].", valueName: "text"))
        var title: String?

        @Option(name: .long, help: ArgumentHelp("The artist drawn under the title; \"\" for none. Unset: the file's artist tag, else the lyrics' [ar:].", valueName: "text"))
        var artist: String?

        @Option(name: .long, help: ArgumentHelp("Behind everything in a composed video: blur (the cover, blurred and dimmed), theme (the theme's background), a color #RRGGBB, or a picture (scaled to cover the frame, dimmed). Unset: blur when there is a cover.", valueName: "style"))
        var backdrop: String?

        @OptionGroup(title: "Settings") var options: SettingOptions<Render>

        /// A window's options, known only to say what render has instead.
        @OptionGroup(visibility: .private) var window: WindowOptions

        func validate() throws {
            guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240") }
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            if window.exitAfter != nil { throw ValidationError("--exit-after does not apply to render; use --duration") }
            if window.record != nil { throw ValidationError("--record does not apply to render; -o is the recording") }
            if window.screenshot != nil { throw ValidationError("--screenshot does not apply to render; render to a folder/ for PNG frames") }
            if window.recordFps != nil { throw ValidationError("--record-fps does not apply to render; --fps is the video's") }
            if window.frameLog != nil { throw ValidationError("--frame-log does not apply to render (there is no window)") }
            guard let kind = RenderOutput.kind(of: output) else {
                throw ValidationError("-o \(output.escapingControlCharacters): unknown kind of output; use \(RenderOutput.supported)")
            }
            if captionsTrack && !RenderOutput.holdsSubtitles.contains(kind) {
                throw ValidationError("--captions-track needs a video that holds subtitles: .mp4, .mov or .webm")
            }
            if captionsTrack && captions == "none" { throw ValidationError("--captions-track with --captions none: there are no captions to mux") }
            try checkOutput(output, option: "-o", kind: kind == .pngFolder ? .folder : .file, inputs: [file])
            let size = try options.layer()[ConfigSchema.Display.size]
            if size.width % 2 != 0 || size.height % 2 != 0 { throw ValidationError("--size must be even in both directions for video") }
        }

        /// The view drawn: the options given over the defaults (render reads no config file, so a
        /// render is the same on every machine).
        func run() throws {
            let settings = try options.layer()
            try OfflineRender(file: file, output: output, fps: fps, duration: duration, display: DisplaySettings(configuration: settings),
                              scrubber: ScrubberSettings(configuration: settings), captions: captions,
                              captionsTrack: captionsTrack,
                              composition: .init(cover: cover, title: title, artist: artist, backdrop: backdrop)).run()
        }
    }
}
