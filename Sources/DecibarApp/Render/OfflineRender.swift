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
    /// One video the render writes: where, and its size.
    public struct Output: Sendable {
        public var path: String
        public var width: Int
        public var height: Int

        public init(path: String, width: Int, height: Int) {
            self.path = path
            self.width = width
            self.height = height
        }
    }

    let file: String
    /// Every output, drawn from one decoding and analysis of the audio.
    let outputs: [Output]
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
        /// `--watermark` and `--watermark-corner`: a picture over every frame (composed or not).
        public var watermark: String?
        public var watermarkCorner: WatermarkLayout.Corner
        /// `--progress`: whether the slim scrubber is drawn; nil when not given (drawn).
        public var showsProgress: Bool?

        public init(cover: String? = nil, title: String? = nil, artist: String? = nil, backdrop: String? = nil,
                    watermark: String? = nil, watermarkCorner: WatermarkLayout.Corner = .topRight, showsProgress: Bool? = nil) {
            self.showsProgress = showsProgress
            self.watermark = watermark
            self.watermarkCorner = watermarkCorner
            self.cover = cover
            self.title = title
            self.artist = artist
            self.backdrop = backdrop
        }

        /// Whether any of them was given: the video is then composed even without a cover or tags.
        var isGiven: Bool { (cover != nil && cover != "none") || title?.isEmpty == false || artist?.isEmpty == false || backdrop != nil
            || showsProgress != nil }
    }
    /// Audio decoded past each frame's time: more than a beat takes to be found (about 20 ms).
    static let lookahead = 0.05

    public init(file: String, outputs: [Output], fps: Int, duration: Double?, display: DisplaySettings, scrubber: ScrubberSettings,
                captions: String? = nil, captionsTrack: Bool = false, composition: Composition = Composition()) {
        self.composition = composition
        self.captions = captions
        self.captionsTrack = captionsTrack
        self.file = file
        self.outputs = outputs
        self.fps = fps
        self.duration = duration
        self.display = display
        self.scrubber = scrubber
    }

    /// What the render reads before anything is decoded or written.
    private struct Inputs {
        var captions: CaptionTrack?
        var cover: CoverArt?
        var backdrop: (style: ComposedView.Backdrop, picture: Picture?)
        var watermark: Watermark?
        var decoder: AudioFileDecoder
        var download: StreamDownload?
    }

    /// The overview the scrubber draws, and the length it measured.
    private struct Analysis {
        var peaks: Peaks
        /// The audio's length in seconds: the file's, or `--duration` when that is shorter.
        var seconds: Double
        var frameCount: Int
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
        let inputs = try openInputs()
        defer { inputs.download?.cancel() }
        var targets: [RenderTarget] = []
        var subtitles: RenderOutput.Subtitles?
        defer { if let subtitles { try? FileManager.default.removeItem(atPath: subtitles.path) } }
        do {
            let analysis = try analyze(inputs)
            targets = try makeTargets(inputs)
            try analyzeSpectrograms(for: targets, sampleRate: inputs.decoder.sampleRate)
            subtitles = try subtitleTrack(inputs.captions, frameCount: analysis.frameCount)
            try openOutputs(for: targets, inputs: inputs, frameCount: analysis.frameCount, subtitles: subtitles)
            let start = try drawFrames(into: targets, inputs: inputs, analysis: analysis)
            try finish(targets, analysis: analysis, startedAt: start)
        } catch {
            throw abandon(targets, after: error)
        }
    }

    private static var isInterrupted: Bool { renderInterrupted.load(ordering: .relaxed) }

    /// What a render stopped by a signal says: nothing was written to any of its outputs.
    private var interruption: CommandFailure {
        let names = outputs.map { $0.path.escapingControlCharacters }.joined(separator: ", ")
        return CommandFailure(message: "interrupted; nothing was written to \(names)", status: 130)
    }

    /// The one way a render ends early, whether a signal, an error or a full disk stopped it: every
    /// output opened so far is stopped and its partial removed, and the reason is one line.
    private func abandon(_ targets: [RenderTarget], after error: any Error) -> CommandFailure {
        for target in targets { target.output?.abandon() }
        switch error {
        case let failure as CommandFailure: return failure
        case let error as AudioFileError: return CommandFailure(message: error.description)
        default: return CommandFailure(message: "cannot render: \(error)")
        }
    }

    /// Before anything is decoded or written: a caption file, cover or backdrop named that cannot
    /// be read ends the render here.
    private func openInputs() throws(CommandFailure) -> Inputs {
        let captionTrack = try CaptionFile.captions(option: captions, audio: file)
        if captionsTrack && captionTrack == nil {
            throw CommandFailure(message: "--captions-track: no captions (give --captions FILE, or put a .lrc, .srt or .vtt of the audio's name beside it)")
        }
        let cover = try CoverArt.find(option: composition.cover, audio: file)
        let backdrop = try ComposedView.backdrop(composition.backdrop, hasCover: cover != nil)
        let watermark = try Watermark.load(composition.watermark, corner: composition.watermarkCorner)
        do {
            let (decoder, download) = try MediaOpener.decoder(for: file)
            return Inputs(captions: captionTrack, cover: cover, backdrop: backdrop, watermark: watermark, decoder: decoder, download: download)
        } catch {
            throw CommandFailure(message: error.description)
        }
    }

    /// The overview first: it gives the exact length too. With --duration only that much is
    /// analyzed (a minute of a ten-hour file takes a minute's work), and the scrubber then spans
    /// the part rendered. The whole file's overview is cached like the player's.
    private func analyze(_ inputs: Inputs) throws(CommandFailure) -> Analysis {
        let sampleRate = inputs.decoder.sampleRate
        let peaks: Peaks
        let frames: Int64
        if duration == nil, let cached = PeaksCache.load(for: file, audio: PeaksCache.Audio(inputs.decoder), samplesPerPixel: 256) {
            peaks = cached.peaks
            frames = cached.frameCount
        } else {
            let limit = duration.map { Int64(saturating: ($0 * Double(sampleRate)).rounded(.up)) } ?? .max
            let result: PeaksAnalysis.Result
            do {
                result = try PeaksAnalysis.analyze(path: file, samplesPerPixel: 256, maximumFrames: limit, following: inputs.download) { _, _, _ in
                    !Self.isInterrupted
                }
            } catch {
                throw CommandFailure(message: error.description)
            }
            if Self.isInterrupted { throw interruption }
            if result.reachedEnd { PeaksCache.store(result.peaks, frameCount: result.frameCount, for: file) }
            // As stored in the cache (16 bits), so a render draws the same whether the cache was used or not.
            peaks = (try? AudiowaveformFormat.peaks(fromBinary: AudiowaveformFormat.binary(result.peaks, bits: .sixteen))) ?? result.peaks
            frames = result.frameCount
        }
        let seconds = Double(frames) / Double(sampleRate)
        return Analysis(peaks: peaks, seconds: seconds, frameCount: max(1, Int(saturating: (seconds * Double(fps)).rounded(.up))))
    }

    /// One target for each output, its shader loaded.
    private func makeTargets(_ inputs: Inputs) throws(CommandFailure) -> [RenderTarget] {
        // A file's moving picture is drawn as the player draws it; a still one (its cover) is composed.
        var firstVideo = openVideo(sayingProblems: true)
        let hasVideo = firstVideo != nil
        let content = content(inputs, hasVideo: hasVideo)
        var targets: [RenderTarget] = []
        do {
            for output in outputs {
                let target = try RenderTarget(width: output.width, height: output.height, display: display, scrubber: scrubber,
                                              content: content,
                                              video: content.isComposed || !hasVideo ? nil : firstVideo ?? openVideo(sayingProblems: false))
                firstVideo = nil
                if let problem = target.visualizer.loadShader() { throw CommandFailure(message: problem) }
                targets.append(target)
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(message: "\(error)")
        }
        if Self.isInterrupted { throw interruption }
        return targets
    }

    /// What every frame shows besides the picture of --mode: captions, cover, title and artist,
    /// backdrop, watermark; composed when any of them asks for it.
    private func content(_ inputs: Inputs, hasVideo: Bool) -> RenderTarget.Content {
        // The tags' title and artist (else the lyrics'), unless given; an empty one is left out.
        let tags = inputs.decoder.tags
        let title = (composition.title ?? tags.title ?? inputs.captions?.title).flatMap { $0.isEmpty ? nil : $0 }
        let artist = (composition.artist ?? tags.artist ?? inputs.captions?.artist).flatMap { $0.isEmpty ? nil : $0 }
        return RenderTarget.Content(
            captions: inputs.captions, cover: inputs.cover, title: title, artist: artist, backdrop: inputs.backdrop,
            isComposed: inputs.cover != nil || composition.isGiven || (!hasVideo && (title != nil || artist != nil)),
            showsProgress: composition.showsProgress ?? true, watermark: inputs.watermark)
    }

    /// `--scrubber spectrogram`: the same stretch's spectrogram, before the first frame (one for each width).
    private func analyzeSpectrograms(for targets: [RenderTarget], sampleRate: Int) throws(CommandFailure) {
        for target in targets where target.showsSpectrogram {
            let limit = duration.map { Int(($0 * Double(sampleRate)).rounded(.up)) } ?? .max
            target.setSpectrogram(try SpectrogramOverview.analyze(path: file, columns: target.width, maximumFrames: limit) { _ in
                !Self.isInterrupted
            })
            if Self.isInterrupted { throw interruption }
        }
    }

    /// `--captions-track`: the captions as a SubRip file for ffmpeg to mux, and the video's length.
    private func subtitleTrack(_ captions: CaptionTrack?, frameCount: Int) throws(CommandFailure) -> RenderOutput.Subtitles? {
        guard captionsTrack, let captions else { return nil }
        return RenderOutput.Subtitles(path: try CaptionFile.temporarySubRip(captions), videoSeconds: Double(frameCount) / Double(fps))
    }

    /// Gives each target its output. Opened ones are abandoned by the caller if a later one fails.
    private func openOutputs(for targets: [RenderTarget], inputs: Inputs, frameCount: Int,
                             subtitles: RenderOutput.Subtitles?) throws(CommandFailure) {
        let sampleRate = inputs.decoder.sampleRate
        // The audio of the frames, and more: a second, or 64 samples of a file of a few hertz, which
        // ffmpeg's resampler needs to make anything of its end.
        let audioSeconds = Double(frameCount) / Double(fps) + max(1, 64 / Double(sampleRate))
        // An MP4 encodes the samples decoded here, up to the video's end.
        let decoded = RenderOutput.DecodedAudio(sampleRate: sampleRate, channelCount: inputs.decoder.channelCount,
                                                frameLimit: Int64((Double(frameCount) / Double(fps) * Double(sampleRate)).rounded()))
        for (target, output) in zip(targets, outputs) {
            target.output = try RenderOutput.open(path: output.path, audio: file, audioSeconds: audioSeconds, width: target.width,
                                                  height: target.height, fps: fps, transparent: display.background == .transparent,
                                                  nv12: target.canvas.readsNV12, subtitles: subtitles, decoded: decoded,
                                                  isInterrupted: { Self.isInterrupted })
        }
    }

    /// Draws every frame into every target, frame k at k/fps, decoding only as far ahead as it
    /// needs; when the frames began (for the rate said at the end).
    private func drawFrames(into targets: [RenderTarget], inputs: Inputs, analysis: Analysis) throws -> Double {
        let audio = FrameAudio(decoder: inputs.decoder, targets: targets)
        let title = OutputPath.name(of: file)
        var progress = ProgressBar(total: analysis.frameCount)
        defer { progress.finish() }
        // Every output's picture sees every buffer released (a picture that wants every buffer takes them all).
        let others = Array(targets.dropFirst())
        let forward: ((AudioBuffer, Double) -> Void)? = others.isEmpty ? nil : { buffer, _ in
            for target in others { target.visualizer.receive(buffer) }
        }
        for index in 0 ..< analysis.frameCount {
            if Self.isInterrupted { throw interruption }
            let time = Double(index) / Double(fps)
            // Far enough past `time` that a beat heard by then has been found: beats land on their frame.
            try audio.decode(until: time + Self.lookahead)
            let reading = targets[0].visualizer.release(audio.feed, heardBy: time, observe: forward)
            for target in targets {
                try target.drawFrame(index: index, time: time, fps: fps, reading: reading, feed: audio.feed, peaks: analysis.peaks,
                                     duration: analysis.seconds, title: title, captions: inputs.captions)
            }
            // llvmpipe's shader compiler (53 MB of LLVM's code at 1080p) is needed only while
            // shaders are built: after the first frame, and every ten seconds for a shader built
            // later, its pages go back (a software-drawn 1080p render: 333 -> 293 MB).
            if index % (fps * 10) == 0 { Posix.releasePages(ofLibrary: "libLLVM") }
            progress.update(done: index + 1)
        }
        return progress.start
    }

    /// Completes every output, then says what was written and how fast.
    private func finish(_ targets: [RenderTarget], analysis: Analysis, startedAt start: Double) throws(CommandFailure) {
        for target in targets { try target.output?.finish() }
        for target in targets { if let problem = target.videoProblem { writeError(problem) } }
        let elapsed = MonotonicClock.now() - start
        let written = targets.compactMap { $0.output?.path }.joined(separator: " and ")
        writeError(String(format: "rendered %d frames (%@ at %d fps) to %@ in %.1f s (%.1f frames/s)", analysis.frameCount,
                          TimeLabel.text(seconds: analysis.seconds), fps, written, elapsed,
                          Double(analysis.frameCount) / max(elapsed, 1e-6)))
        // Which preset is where in the video, to find one again.
        for target in targets {
            for change in target.visualizer.changes { writeError("shown " + change.line(fps: fps)) }
        }
    }

    /// The file's picture, unless pictures are off or it has none (then the render is as for audio).
    private func openVideo(sayingProblems: Bool) -> RenderedVideo? {
        guard scrubber.videoLayout != .off, !MediaLocation.isRemote(file) else { return nil }
        do {
            return RenderedVideo(decoder: try VideoFileDecoder(path: file))
        } catch where error.reason != VideoFileDecoder.noPicture {
            if sayingProblems { writeError("\(error.description); the picture is not rendered") }
        } catch {}
        return nil
    }
}

/// The file's samples on their way to the frames: decoded into the feed (and every output) only
/// as far as the frame being drawn needs, its beats found as they come.
private final class FrameAudio {
    let feed = AudioFeed(capacity: 4096)
    private let decoder: AudioFileDecoder
    private let targets: [RenderTarget]
    private var rechunker: Rechunker
    private var beats = BeatFinder()
    private var decodedFrames: Int64 = 0
    private var isDone = false

    init(decoder: AudioFileDecoder, targets: [RenderTarget]) {
        self.decoder = decoder
        self.targets = targets
        rechunker = Rechunker(channelCount: decoder.channelCount, sampleRate: decoder.sampleRate)
    }

    /// Decodes until every sample heard by `seconds` is in the feed, or the file ends.
    func decode(until seconds: Double) throws(AudioFileError) {
        while !isDone && Double(decodedFrames) / Double(decoder.sampleRate) < seconds {
            let more = try decoder.read { samples in
                rechunker.append(samples, emit: add)
                for target in targets { target.output?.write(audio: samples) }
            }
            if !more {
                rechunker.flush(emit: add)
                isDone = true
            }
        }
    }

    /// Each buffer is stamped with the file time of its last sample: it counts as heard once the
    /// whole of it has played. Its beats go into the feed at their file time.
    private func add(_ buffer: AudioBuffer) {
        var stamped = buffer
        stamped.captureTime = Double(buffer.startFrame + Int64(buffer.frameCount)) / Double(decoder.sampleRate)
        feed.add(stamped)
        let feed = feed
        beats.add(stamped) { event in
            if event.isBeat { feed.addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence) }
        }
        decodedFrames = buffer.startFrame + Int64(buffer.frameCount)
    }
}
