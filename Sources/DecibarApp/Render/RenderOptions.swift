import DecibarCore

/// `render`'s own options: rows like the config file's, checked by their kinds, but taken only on
/// its command line (a render reads no config file, so it is the same on every machine).
public struct RenderOptions: SettingsGroup {
    public static let rows = RenderOptions()
    static let home = CommandLineHome("render", for: [.render], elsewhere: "only render takes it")

    public init() {}

    public let size: Setting<String?> = .text(home, "size", valueName: "size",
        "The video's size in pixels, WxH, or a shape: 16:9 (1920x1080), 9:16 (1080x1920), 1:1 (1080x1080) or 4:5 (1080x1350); with several -o, one for each, comma-separated (16:9,9:16), or one for all. Default: 1280x720.")
    public let fps: Setting<Int> = .integer(home, "fps", 1...240, default: 30, "Frames per second, 1 to 240.")
    public let duration: Setting<Double?> = .number(home, "duration", 0.001...Double.greatestFiniteMagnitude, unit: "seconds",
        "Render only the first this many seconds; the scrubber then spans just that part (and only it is analyzed).")
    public let captions: Setting<String?> = .text(home, "captions", valueName: "file|none",
        "Words drawn on time: a SubRip .srt, WebVTT .vtt or LRC .lrc file (LRC's word times highlight each word as it is sung), or none. Unset: a file beside the audio with its name and one of those extensions, if there is one.")
    public let captionsTrack: Setting<Bool> = .boolean(home, "captions_track",
        "Also put the captions in the video as a soft subtitle track (mov_text in .mp4 and .mov, WebVTT in .webm), for players to show or hide.")
    public let cover: Setting<String?> = .text(home, "cover", valueName: "file|none",
        "The cover drawn beside the bars (or in the ring of --layout radial): a picture, or none. Unset: a cover, folder, front or album picture beside the audio, else the art embedded in it.")
    public let title: Setting<String?> = .text(home, "title", valueName: "text", rules: .init(allowsEmpty: true),
        "The title drawn with the cover; \"\" for none. Unset: the file's title tag, else the lyrics' [ti:].")
    public let artist: Setting<String?> = .text(home, "artist", valueName: "text", rules: .init(allowsEmpty: true),
        "The artist drawn under the title; \"\" for none. Unset: the file's artist tag, else the lyrics' [ar:].")
    public let backdrop: Setting<String?> = .text(home, "backdrop", valueName: "style",
        "Behind everything in a composed video: blur (the cover, blurred and dimmed), theme (the theme's background), a color #RRGGBB, a picture, or a video, looped (scaled to cover the frame, dimmed). Unset: blur when there is a cover.")
    public let watermark: Setting<String?> = .text(home, "watermark", valueName: "file",
        "A picture drawn over every frame, its transparency kept (a logo), an eighth of the frame's shorter side across, in a corner of the safe area (the bottom ones above the scrubber).")
    public let watermarkCorner: Setting<WatermarkLayout.Corner> = .choice(home, "watermark_corner", default: .topRight,
        "The watermark's corner: top-left, top-right, bottom-left or bottom-right.")
    public let progress: Setting<String?> = .words(home, "progress", ["bar", "none"],
        "A composed video's progress: bar (a slim scrubber with the time and the length at the bottom) or none (the bars take its room). Unset: bar.")
}

extension RenderOptions {
    /// What the rows' kinds cannot check: each output's kind, one given twice or in place of the
    /// input, subtitles only where a video holds them, the mode's limits, a size for each.
    public static func check(outputs: [String], of file: String, settings: Configuration) throws(CommandFailure) {
        func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
        let captionsTrack = settings[rows.captionsTrack]
        for (index, output) in outputs.enumerated() {
            guard let kind = RenderOutput.kind(of: output) else {
                throw usage("-o \(output.escapingControlCharacters): unknown kind of output; use \(RenderOutput.supported)")
            }
            if captionsTrack && !RenderOutput.holdsSubtitles.contains(kind) {
                throw usage("--captions-track needs a video that holds subtitles: .mp4, .mov or .webm")
            }
            if outputs[..<index].contains(where: { OutputPath.absolute($0) == OutputPath.absolute(output) }) {
                throw usage("-o \(output.escapingControlCharacters) is given twice")
            }
            do {
                try OutputPath.check(output, option: "-o", kind: kind == .pngFolder ? .folder : .file, inputs: [file])
            } catch {
                throw usage(error.description)
            }
        }
        let mode = settings[ConfigSchema.display.mode]
        if outputs.count > 1, let reason = mode.details?.oneOutputAtATime {
            throw usage("--mode \(mode) renders one output at a time (\(reason))")
        }
        if captionsTrack && settings[rows.captions] == "none" { throw usage("--captions-track with --captions none: there are no captions to mux") }
        _ = try sizes(settings[rows.size], outputs: outputs.count)
    }

    /// The size of each output: `--size`'s, one for all or one for each (comma-separated).
    static func sizes(_ text: String?, outputs: Int) throws(CommandFailure) -> [PixelSize] {
        func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
        guard let text else { return Array(repeating: ConfigSchema.display.size.defaultValue, count: outputs) }
        var sizes: [PixelSize] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let size = PixelSize(text: String(part)) else {
                throw usage("--size \(String(part).escapingControlCharacters): not a size; use WxH (16 to 16384 each way), 16:9, 9:16, 1:1 or 4:5")
            }
            guard size.width % 2 == 0, size.height % 2 == 0 else { throw usage("--size must be even in both directions for video") }
            sizes.append(size)
        }
        if sizes.count == 1 { return Array(repeating: sizes[0], count: outputs) }
        guard sizes.count == outputs else {
            throw usage("--size gives \(sizes.count) sizes for \(outputs) outputs; give one, or one for each -o")
        }
        return sizes
    }
}
