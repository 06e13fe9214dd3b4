import DecibarAudio
import DecibarCore
import DecibarRender

/// One video of a render: its canvas and everything drawn into it, and where its frames go.
/// A render with several outputs (`-o wide.mp4 -o tall.mp4 --size 16:9,9:16`) has one of these
/// for each, all fed from the one decoding and analysis, each drawn in its own OpenGL context.
final class RenderTarget {
    let width: Int
    let height: Int
    let canvas: OffscreenCanvas
    let visualizer: Visualizer
    private let scrubber: ScrubberView
    private let pictures: PictureRenderer
    private let captionView: CaptionView?
    private let composed: ComposedView?
    private let watermark: (renderer: PictureRenderer, rect: PixelRect)?
    private var video: RenderedVideo?
    /// `--backdrop VIDEO` behind a composed frame.
    private var backdropVideo: LoopingVideo?
    private var spectrogram: (result: SpectrogramOverview.Result, version: Int)?
    private let layout: PlayLayout
    private let scrubberSettings: ScrubberSettings
    var output: (any FrameSink)?

    /// Why the picture stopped early, if it did.
    var videoProblem: String? { video?.problem ?? backdropVideo?.problem }

    struct Content {
        var captions: CaptionTrack?
        var cover: CoverArt?
        var title: String?
        var artist: String?
        var backdrop: (style: ComposedView.Backdrop, picture: Picture?)
        var isComposed: Bool
        /// `--progress`: a composed frame's slim scrubber.
        var showsProgress = true
        var watermark: Watermark?
    }

    /// Makes the canvas (its context current from then on) and the renderers. `video` is the
    /// file's moving picture, drawn when the frame is not composed.
    init(width: Int, height: Int, display: DisplaySettings, scrubber settings: ScrubberSettings, content: Content,
         video: RenderedVideo?) throws(RenderError) {
        self.width = width
        self.height = height
        canvas = try OffscreenCanvas(width: width, height: height)
        let shaders = try ShaderLibrary()
        layout = PlayLayout(width: width, height: height)
        var sized = display
        sized.size = PixelSize(width: width, height: height)
        visualizer = try Visualizer(display: sized, shaders: shaders, labelSize: max(11, layout.labelSize * 4 / 5), now: 0, deterministic: true)
        scrubber = ScrubberView(options: settings, rects: try RectRenderer(shaders: shaders),
                                text: try TextRenderer(shaders: shaders, pixelSize: layout.labelSize), shaders: shaders)
        scrubberSettings = settings
        pictures = try PictureRenderer(shaders: shaders)
        captionView = content.captions == nil ? nil : try CaptionView(shaders: shaders, width: width, height: height)
        composed = content.isComposed
            ? try ComposedView(shaders: shaders, width: width, height: height, cover: content.cover, title: content.title,
                               artist: content.artist, radial: display.arrangement == .radial, progress: content.showsProgress,
                               backdrop: content.backdrop.style,
                               backdropPicture: content.backdrop.picture)
            : nil
        self.video = content.isComposed ? nil : video
        if content.isComposed, case .video(let path) = content.backdrop.style {
            do throws(AudioFileError) {
                backdropVideo = try LoopingVideo(path: path, coveringWidth: width, height: height)
            } catch {
                throw RenderError("--backdrop \(path.escapingControlCharacters): \(error.reason)")
            }
        }
        if let mark = content.watermark {
            let renderer = try PictureRenderer(shaders: shaders)
            renderer.upload(mark.picture)
            watermark = (renderer, WatermarkLayout(pictureWidth: mark.picture.width, pictureHeight: mark.picture.height,
                                                   canvasWidth: width, canvasHeight: height, corner: mark.corner,
                                                   above: composed.map { $0.layout.showsProgress ? $0.layout.play.scrubberTop : nil }
                                                       ?? layout.scrubberTop).rect)
        } else {
            watermark = nil
        }
    }

    var showsSpectrogram: Bool { scrubber.showsSpectrogram }

    func setSpectrogram(_ result: SpectrogramOverview.Result) { spectrogram = (result, 1) }

    /// Draws frame `index` (at `time`) from what `reading` released, and hands it to the output.
    func drawFrame(index: Int, time: Double, fps: Int, reading: LevelReading, feed: AudioFeed, peaks: Peaks, duration: Double,
                   title: String, captions: CaptionTrack?) throws {
        canvas.makeCurrent()
        visualizer.update(reading: reading, feed: feed, dt: index == 0 ? 0 : 1 / Double(fps), now: time, canvasWidth: width)
        var area = PictureLayout(.off, aspectRatio: nil, width: width, areaHeight: layout.barsHeight)
        if video != nil, let shown = try video?.advance(to: time, layout: layout, videoLayout: scrubberSettings.videoLayout) {
            area = shown.area
            if let picture = shown.fresh { pictures.upload(picture) }
        }
        let frame = PlayerFrame(visualizer: visualizer, pictures: pictures, scrubber: scrubber)
        let state = ScrubberView.State(peaks: peaks, peaksKey: .init(track: 0, version: 0), duration: duration, playhead: time,
                                       title: composed == nil ? title : "", decibels: scrubberSettings.decibels, spectrogram: spectrogram)
        var captionsBottom = layout.barsHeight - layout.labelSize / 2
        if let composed {
            if let fresh = backdropVideo?.advance(to: time) { composed.showBackdrop(fresh) }
            frame.drawComposed(composed, scrubberState: state, now: time)
            captionsBottom = composed.layout.captionsBottom
        } else {
            frame.draw(layout: layout, area: area, scrubberState: state, now: time)
        }
        if let captions, let captionView {
            captionView.draw(captions.showing(at: time), at: time, bottom: captionsBottom, canvasWidth: width, canvasHeight: height)
        }
        if let watermark { watermark.renderer.drawBlended(in: watermark.rect, canvasWidth: width, canvasHeight: height) }
        try output?.writeFrame(from: canvas)
    }
}
