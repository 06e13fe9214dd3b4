import DecibarCore

extension OfflineRender {
    /// A render of `file` to each of `outputPaths`, as render's options and the settings say.
    public init(file: String, outputPaths: [String], settings: Configuration) throws(CommandFailure) {
        let rows = RenderOptions.rows
        let sizes = try RenderOptions.sizes(settings[rows.size], outputs: outputPaths.count)
        let composition = Composition(cover: settings[rows.cover], title: settings[rows.title], artist: settings[rows.artist],
                                      backdrop: settings[rows.backdrop], watermark: settings[rows.watermark],
                                      watermarkCorner: settings[rows.watermarkCorner], showsProgress: settings[rows.progress].map { $0 == "bar" })
        self.init(file: file, outputs: zip(outputPaths, sizes).map { Output(path: $0, width: $1.width, height: $1.height) },
                  fps: settings[rows.fps], duration: settings[rows.duration], display: DisplaySettings(configuration: settings),
                  scrubber: ScrubberSettings(configuration: settings), captions: settings[rows.captions],
                  captionsTrack: settings[rows.captionsTrack], composition: composition)
    }
}
