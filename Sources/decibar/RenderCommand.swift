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

        @Option(name: .shortAndLong, help: ArgumentHelp("Where to write: OUT.mp4, .mov, .webm, .gif or a folder/. Give it again for more videos of the same render (the audio is decoded and analyzed once), with a size for each in --size.", valueName: "out"))
        var output: [String]

        @Option(name: .long, help: ArgumentHelp("The video's size in pixels, WxH, or a shape: 16:9 (1920x1080), 9:16 (1080x1920), 1:1 (1080x1080) or 4:5 (1080x1350); with several -o, one for each, comma-separated (16:9,9:16), or one for all. Default: 1280x720.", valueName: "size"))
        var size: String?

        /// `--size` is render's own: it takes a size for each output.
        static var ownOptions: Set<String> { ["--size"] }

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

        @Option(name: .long, help: ArgumentHelp("Behind everything in a composed video: blur (the cover, blurred and dimmed), theme (the theme's background), a color #RRGGBB, a picture, or a video, looped (scaled to cover the frame, dimmed). Unset: blur when there is a cover.", valueName: "style"))
        var backdrop: String?

        @Option(name: .long, help: ArgumentHelp("A picture drawn over every frame, its transparency kept (a logo), an eighth of the frame's shorter side across, in a corner of the safe area (the bottom ones above the scrubber).", valueName: "file"))
        var watermark: String?

        @Option(name: .long, help: ArgumentHelp("The watermark's corner: top-left, top-right, bottom-left or bottom-right.", valueName: "corner"))
        var watermarkCorner = "top-right"

        @Option(name: .long, help: ArgumentHelp("A composed video's progress: bar (a slim scrubber with the time and the length at the bottom) or none (the bars take its room). Unset: bar.", valueName: "style"))
        var progress: String?

        @OptionGroup(title: "Settings") var options: SettingOptions<Render>

        /// A window's options, known only to say what render has instead.
        @OptionGroup(visibility: .private) var window: WindowOptions

        func validate() throws {
            guard (1...240).contains(fps) else { throw ValidationError("--fps must be between 1 and 240") }
            if let duration, !(duration.isFinite && duration > 0) {
                throw ValidationError("--duration must be a positive number of seconds")
            }
            guard WatermarkLayout.Corner(rawValue: watermarkCorner) != nil else {
                throw ValidationError("--watermark-corner must be one of " + WatermarkLayout.Corner.allCases.map(\.rawValue).joined(separator: ", "))
            }
            if let progress, !["bar", "none"].contains(progress) { throw ValidationError("--progress must be bar or none") }
            if window.exitAfter != nil { throw ValidationError("--exit-after does not apply to render; use --duration") }
            if window.record != nil { throw ValidationError("--record does not apply to render; -o is the recording") }
            if window.screenshot != nil { throw ValidationError("--screenshot does not apply to render; render to a folder/ for PNG frames") }
            if window.recordFps != nil { throw ValidationError("--record-fps does not apply to render; --fps is the video's") }
            if window.frameLog != nil { throw ValidationError("--frame-log does not apply to render (there is no window)") }
            for (index, output) in output.enumerated() {
                guard let kind = RenderOutput.kind(of: output) else {
                    throw ValidationError("-o \(output.escapingControlCharacters): unknown kind of output; use \(RenderOutput.supported)")
                }
                if captionsTrack && !RenderOutput.holdsSubtitles.contains(kind) {
                    throw ValidationError("--captions-track needs a video that holds subtitles: .mp4, .mov or .webm")
                }
                if self.output[..<index].contains(where: { OutputPath.absolute($0) == OutputPath.absolute(output) }) {
                    throw ValidationError("-o \(output.escapingControlCharacters) is given twice")
                }
                try checkOutput(output, option: "-o", kind: kind == .pngFolder ? .folder : .file, inputs: [file])
            }
            let mode = try options.layer()[ConfigSchema.display.mode]
            if output.count > 1, let reason = mode.details?.oneOutputAtATime {
                throw ValidationError("--mode \(mode) renders one output at a time (\(reason))")
            }
            if captionsTrack && captions == "none" { throw ValidationError("--captions-track with --captions none: there are no captions to mux") }
            _ = try sizes()
        }

        /// The size of each output: `--size`'s, one for all or one for each.
        func sizes() throws -> [PixelSize] {
            guard let size else { return output.map { _ in ConfigSchema.display.size.defaultValue } }
            let sizes = try size.split(separator: ",", omittingEmptySubsequences: false).map { text in
                guard let found = ConfigKey.size(String(text)) else {
                    throw ValidationError("--size \(String(text).escapingControlCharacters): not a size; use WxH (16 to 16384 each way), 16:9, 9:16, 1:1 or 4:5")
                }
                guard found.width % 2 == 0, found.height % 2 == 0 else { throw ValidationError("--size must be even in both directions for video") }
                return PixelSize(width: found.width, height: found.height)
            }
            if sizes.count == 1 { return output.map { _ in sizes[0] } }
            guard sizes.count == output.count else {
                throw ValidationError("--size gives \(sizes.count) sizes for \(output.count) outputs; give one, or one for each -o")
            }
            return sizes
        }

        /// The view drawn: the options given over the defaults (render reads no config file, so a
        /// render is the same on every machine).
        func run() throws {
            let settings = try options.layer()
            let outputs = try zip(output, sizes()).map { OfflineRender.Output(path: $0, width: $1.width, height: $1.height) }
            try OfflineRender(file: file, outputs: outputs, fps: fps, duration: duration, display: DisplaySettings(configuration: settings),
                              scrubber: ScrubberSettings(configuration: settings), captions: captions,
                              captionsTrack: captionsTrack,
                              composition: .init(cover: cover, title: title, artist: artist, backdrop: backdrop, watermark: watermark,
                                                 watermarkCorner: WatermarkLayout.Corner(rawValue: watermarkCorner) ?? .topRight,
                                                 showsProgress: progress.map { $0 == "bar" })).run()
        }
    }
}
