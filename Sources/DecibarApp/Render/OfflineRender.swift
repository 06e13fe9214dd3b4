import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation
import Synchronization

/// Set by SIGINT or SIGTERM while a render runs; the frame loop then stops and cleans up.
private let renderInterrupted = Atomic<Bool>(false)

/// `decibar render`: the player's view, frame by frame on a virtual clock. Frame k shows the state
/// at k/fps: the file's samples up to that moment, through the same feed, visualizer, smoother
/// and scrubber as `play`, drawn offscreen and handed to the output.
public struct OfflineRender {
    let file: String
    let output: String
    let fps: Int
    let duration: Double?
    let display: DisplaySettings
    let scrubber: ScrubberSettings
    /// `--captions`: a caption file, `none`, or nil for one beside the audio (see `CaptionFile`).
    let captions: String?
    /// `--captions-track`: the captions also muxed as a soft subtitle track.
    let captionsTrack: Bool
    let composition: Composition

    /// A composed video's options; nil falls back to what the file says.
    public struct Composition: Sendable {
        /// `--cover`: a picture's path, `none`, or nil for the file's own (beside it, else embedded).
        public var cover: String?
        /// `--title` and `--artist`: nil for the tags' (then the lyrics'); empty for none.
        public var title: String?
        public var artist: String?
        /// `--backdrop`: `blur`, `theme`, `#RRGGBB` or a picture's path; nil for blur behind a cover.
        public var backdrop: String?

        public init(cover: String? = nil, title: String? = nil, artist: String? = nil, backdrop: String? = nil) {
            self.cover = cover
            self.title = title
            self.artist = artist
            self.backdrop = backdrop
        }

        /// Whether any of them was given: the video is then composed even without a cover or tags.
        var isGiven: Bool { (cover != nil && cover != "none") || title?.isEmpty == false || artist?.isEmpty == false || backdrop != nil }
    }
    /// Audio decoded past each frame's time: more than a beat takes to be found (about 20 ms).
    static let lookahead = 0.05

    public init(file: String, output: String, fps: Int, duration: Double?, display: DisplaySettings, scrubber: ScrubberSettings,
                captions: String? = nil, captionsTrack: Bool = false, composition: Composition = Composition()) {
        self.composition = composition
        self.captions = captions
        self.captionsTrack = captionsTrack
        self.file = file
        self.output = output
        self.fps = fps
        self.duration = duration
        self.display = display
        self.scrubber = scrubber
    }

    public func run() throws {
        // Ctrl-C or `kill` at any point (the overview included) ends the render with nothing left.
        renderInterrupted.store(false, ordering: .relaxed)
        let previous = (signal(SIGINT) { _ in renderInterrupted.store(true, ordering: .relaxed) },
                        signal(SIGTERM) { _ in renderInterrupted.store(true, ordering: .relaxed) })
        defer {
            signal(SIGINT, previous.0)
            signal(SIGTERM, previous.1)
        }
        let isInterrupted = { renderInterrupted.load(ordering: .relaxed) }
        let interruption = CommandFailure(message: "interrupted; nothing was written to \(output.escapingControlCharacters)", status: 130)

        let width = display.size.width, height = display.size.height
        // Before anything is decoded or written: a caption file named that cannot be read ends the render here.
        let captionTrack = try CaptionFile.captions(option: captions, audio: file)
        if captionsTrack && captionTrack == nil {
            throw CommandFailure(message: "--captions-track: no captions (give --captions FILE, or put a .lrc, .srt or .vtt of the audio's name beside it)")
        }
        let cover = try CoverArt.find(option: composition.cover, audio: file)
        let backdrop = try ComposedView.backdrop(composition.backdrop, hasCover: cover != nil)
        let decoder: AudioFileDecoder
        let download: StreamDownload?
        do {
            (decoder, download) = try MediaOpener.decoder(for: file)
        } catch {
            throw CommandFailure(message: error.description)
        }
        defer { download?.cancel() }
        let sampleRate = decoder.sampleRate

        // The overview first: it gives the exact length too. With --duration only that much is
        // analyzed (a minute of a ten-hour file takes a minute's work), and the scrubber then spans
        // the part rendered. The whole file's overview is cached like the player's.
        let peaks: Peaks
        let frames: Int64
        if duration == nil, let cached = PeaksCache.load(for: file, audio: PeaksCache.Audio(decoder), samplesPerPixel: 256) {
            peaks = cached.peaks
            frames = cached.frameCount
        } else {
            let limit = duration.map { Int64(saturating: ($0 * Double(sampleRate)).rounded(.up)) } ?? .max
            let result: PeaksAnalysis.Result
            do {
                result = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, maximumFrames: limit, following: download) { _, _, _ in !isInterrupted() }
            } catch {
                throw CommandFailure(message: error.description)
            }
            if isInterrupted() { throw interruption }
            if result.reachedEnd { PeaksCache.store(result.peaks, frameCount: result.frameCount, for: file) }
            // As stored in the cache (16 bits), so a render draws the same whether the cache was used or not.
            peaks = (try? AudiowaveformFormat.peaks(fromBinary: AudiowaveformFormat.binary(result.peaks, bits: .sixteen))) ?? result.peaks
            frames = result.frameCount
        }
        let seconds = Double(frames) / Double(sampleRate)
        let frameCount = max(1, Int(saturating: (seconds * Double(fps)).rounded(.up)))

        let canvas: OffscreenCanvas
        let visualizer: Visualizer
        let view: ScrubberView
        let pictures: PictureRenderer
        let captionView: CaptionView?
        var composed: ComposedView?
        // The tags' title and artist (else the lyrics'), unless given; an empty one is left out.
        let shownTitle = (composition.title ?? decoder.tags.title ?? captionTrack?.title).flatMap { $0.isEmpty ? nil : $0 }
        let shownArtist = (composition.artist ?? decoder.tags.artist ?? captionTrack?.artist).flatMap { $0.isEmpty ? nil : $0 }
        // A file's moving picture is drawn as the player draws it; a still one (its cover) is composed.
        var video = openVideo()
        let isComposed = cover != nil || composition.isGiven || (video == nil && (shownTitle != nil || shownArtist != nil))
        if isComposed { video = nil }
        do {
            canvas = try OffscreenCanvas(width: width, height: height)
            let shaders = try ShaderLibrary()
            let layout = PlayLayout(width: width, height: height)
            visualizer = try Visualizer(options: display, shaders: shaders, labelSize: max(11, layout.labelSize * 4 / 5),
                                        now: 0, deterministic: true)
            view = ScrubberView(options: scrubber, rects: try RectRenderer(shaders: shaders),
                                text: try TextRenderer(shaders: shaders, pixelSize: layout.labelSize), shaders: shaders)
            pictures = try PictureRenderer(shaders: shaders)
            captionView = captionTrack == nil ? nil : try CaptionView(shaders: shaders, width: width, height: height)
            if isComposed {
                composed = try ComposedView(shaders: shaders, width: width, height: height, cover: cover, title: shownTitle, artist: shownArtist,
                                            radial: display.arrangement == .radial, backdrop: backdrop.style, backdropPicture: backdrop.picture)
            }
        } catch {
            throw CommandFailure(message: error.description)
        }
        if let problem = visualizer.loadShader() { throw CommandFailure(message: problem) }

        if isInterrupted() { throw interruption }
        // `--scrubber spectrogram`: the same stretch's spectrogram, before the first frame.
        var spectrogram: (result: SpectrogramOverview.Result, version: Int)?
        if view.showsSpectrogram {
            let limit = duration.map { Int(($0 * Double(sampleRate)).rounded(.up)) } ?? .max
            spectrogram = (try SpectrogramOverview.analyze(path: file, columns: width, maximumFrames: limit) { _ in !isInterrupted() }, 1)
            if isInterrupted() { throw interruption }
        }
        // The audio of the frames, and more: a second, or 64 samples of a file of a few hertz, which
        // ffmpeg's resampler needs to make anything of its end.
        let audioSeconds = Double(frameCount) / Double(fps) + max(1, 64 / Double(sampleRate))
        let subtitles = try captionsTrack ? captionTrack.map { track throws(CommandFailure) in
            RenderOutput.Subtitles(path: try CaptionFile.temporarySubRip(track), videoSeconds: Double(frameCount) / Double(fps))
        } : nil
        defer { if let subtitles { try? FileManager.default.removeItem(atPath: subtitles.path) } }
        let out = try RenderOutput(path: output, audio: file, audioSeconds: audioSeconds, width: width, height: height, fps: fps,
                                   transparent: display.background == .transparent, nv12: canvas.readsNV12, subtitles: subtitles,
                                   isInterrupted: isInterrupted)

        let feed = AudioFeed(capacity: 4096)
        var rechunker = Rechunker(channelCount: decoder.channelCount, sampleRate: sampleRate)
        var decodedFrames: Int64 = 0
        var decoderDone = false
        // Each buffer is stamped with the file time of its last sample: it counts as heard once
        // the whole of it has played. Its beats go into the feed at their file time.
        var beats = BeatFinder()
        func add(_ buffer: AudioBuffer) {
            var stamped = buffer
            stamped.captureTime = Double(buffer.startFrame + Int64(buffer.frameCount)) / Double(sampleRate)
            feed.add(stamped)
            beats.add(stamped) { event in
                if event.isBeat { feed.addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence) }
            }
            decodedFrames = buffer.startFrame + Int64(buffer.frameCount)
        }
        let title = OutputPath.name(of: file)
        var progress = ProgressBar(total: frameCount)
        let layout = PlayLayout(width: width, height: height)
        let frame = PlayerFrame(visualizer: visualizer, pictures: pictures, scrubber: view)

        do {
            for index in 0 ..< frameCount {
                if isInterrupted() { throw interruption }
                let time = Double(index) / Double(fps)
                // Decode until every sample heard by `time` is in the feed, and far enough past it
                // that a beat heard by then has been found: beats land on their frame.
                while !decoderDone && Double(decodedFrames) / Double(sampleRate) < time + Self.lookahead {
                    let more = try decoder.read { samples in rechunker.append(samples, emit: add) }
                    if !more {
                        rechunker.flush(emit: add)
                        decoderDone = true
                    }
                }
                let reading = visualizer.release(feed, heardBy: time)
                visualizer.update(reading: reading, feed: feed, dt: index == 0 ? 0 : 1 / Double(fps), now: time, canvasWidth: width)
                var area = PictureLayout(.off, aspectRatio: nil, width: width, areaHeight: layout.barsHeight)
                if video != nil, let shown = try video?.advance(to: time, layout: layout, videoLayout: scrubber.videoLayout) {
                    area = shown.area
                    if let picture = shown.fresh { pictures.upload(picture) }
                }
                let state = ScrubberView.State(peaks: peaks, peaksKey: .init(track: 0, version: 0), duration: seconds, playhead: time,
                                               title: composed == nil ? title : "", decibels: scrubber.decibels, spectrogram: spectrogram)
                var captionsBottom = layout.barsHeight - layout.labelSize / 2
                if let composed {
                    frame.drawComposed(composed, scrubberState: state, now: time)
                    captionsBottom = composed.layout.captionsBottom
                } else {
                    frame.draw(layout: layout, area: area, scrubberState: state, now: time)
                }
                if let captionTrack, let captionView {
                    captionView.draw(captionTrack.showing(at: time), at: time, bottom: captionsBottom, canvasWidth: width, canvasHeight: height)
                }
                if out.takesNV12 {
                    try canvas.readNV12 { bytes in try out.write(frame: bytes) }
                } else {
                    try canvas.readPixels().withUnsafeBytes { bytes in try out.write(frame: bytes) }
                }
                progress.update(done: index + 1)
            }
            progress.finish()
            try out.finish()
        } catch let failure as CommandFailure {
            progress.finish()
            out.abandon()
            throw failure
        } catch let error as AudioFileError {
            progress.finish()
            out.abandon()
            throw CommandFailure(message: error.description)
        } catch {
            progress.finish()
            out.abandon()
            throw CommandFailure(message: "cannot render: \(error)")
        }
        if let problem = video?.problem { writeError(problem) }
        let elapsed = MonotonicClock.now() - progress.start
        writeError(String(format: "rendered %d frames (%@ at %d fps) to %@ in %.1f s (%.1f frames/s)", frameCount,
                          TimeLabel.text(seconds: seconds), fps, out.path, elapsed, Double(frameCount) / max(elapsed, 1e-6)))
    }

    /// The file's picture, unless pictures are off or it has none (then the render is as for audio).
    private func openVideo() -> RenderedVideo? {
        guard scrubber.videoLayout != .off, !MediaLocation.isRemote(file) else { return nil }
        do {
            return RenderedVideo(decoder: try VideoFileDecoder(path: file))
        } catch where error.reason != VideoFileDecoder.noPicture {
            writeError("\(error.description); the picture is not rendered")
        } catch {}
        return nil
    }
}
