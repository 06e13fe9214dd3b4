import DecibarAudio
import DecibarCore
import DecibarRender

/// What both windows (and the offline render) draw above everything else: the picture of the
/// mode in use (`VisualCatalog`), and the user's shader's error over it. `update` moves the
/// picture on by the frame's audio and `dt`; `draw` puts it on screen.
///
/// Each mode's picture is made the first time it shows and kept, so switching back finds it as
/// it was left (its sensitivity, its loudness).
public final class Visualizer {
    let tools: VisualTools
    let startTime: Double
    private var clock = VisualClock()
    private var lastFrame: VisualFrame?
    private var visuals: [VisualMode: any Visual] = [:]
    private var visual: any Visual

    /// - Parameter deterministic: bit-identical output from run to run (offline renders): FFTW plans
    ///   are estimated, not timed.
    public init(display: DisplaySettings, shaders: ShaderLibrary, labelSize: Int, now: Double,
                deterministic: Bool = false) throws(RenderError) {
        tools = try VisualTools(display: display, shaders: shaders, labelSize: labelSize, deterministic: deterministic)
        startTime = now
        mode = display.mode
        visual = try VisualCatalog.make(display.mode, tools: tools)
        visuals[display.mode] = visual
    }

    public private(set) var mode: VisualMode

    /// Loads the user's shader now; why it cannot draw, if it cannot (a render fails then).
    public func loadShader() -> String? { tools.userShaders?.loadNow() }

    /// Shows `mode`'s picture from the next frame; fails, leaving the picture as it was, when it
    /// cannot be drawn here (one whose library or files are not installed).
    public func show(_ mode: VisualMode) throws(RenderError) {
        guard mode != self.mode else { return }
        if let made = visuals[mode] {
            visual = made
        } else {
            let made = try VisualCatalog.make(mode, tools: tools)
            visuals[mode] = made
            visual = made
        }
        self.mode = mode
    }

    /// The next mode that can be drawn here (m); those that cannot are skipped, said once each.
    func showNextMode(backward: Bool = false) {
        var candidate = backward ? mode.previous : mode.next
        while candidate != mode {
            do {
                try show(candidate)
                return
            } catch {
                if !unavailableModes.contains(candidate) { writeError("\(error.description)") }
                unavailableModes.insert(candidate)
                candidate = backward ? candidate.previous : candidate.next
            }
        }
    }

    private var unavailableModes: Set<VisualMode> = []

    /// Whether what it draws follows the beat: the accent, a shader reading the beat, or a
    /// picture that changes on it.
    var usesBeats: Bool {
        tools.display.beatAccent || tools.shaderPass?.readsBeat == true || visual.needs.contains(.beats)
    }

    /// What the picture shows by name (a preset), for the status.
    public var shownName: String? { visual.shownName }
    /// What the picture showed by name and when, in a render.
    var changes: [PictureChange] { visual.changes }

    /// A problem of the picture's worth saying over it (a preset skipped), once.
    func takeNotice() -> String? { visual.takeNotice() }

    /// What the window's title adds to its own (the picture's own: a preset's name).
    public var titleSuffix: String { visual.titleSuffix }

    /// A setting as the picture uses it now (the preset shown); nil for the setting's own value.
    public func currentValue(of key: ConfigKey) -> JSONValue? {
        if key == ConfigSchema.display.mode.key { return .string(mode.rawValue) }
        return visual.currentValue(of: key)
    }

    /// The commands of the picture: the mode, the user's shader, and those the picture shown takes
    /// (a mode's presets). False for any other command.
    func perform(_ command: ControlCommand) throws(ControlFailure) -> Bool {
        switch command {
        case .mode(.next): showNextMode()
        case .mode(.previous): showNextMode(backward: true)
        case .mode(.named(let name)):
            guard let mode = VisualMode(rawValue: name) else {
                throw ControlFailure(.invalidParameter, "mode: no mode \(name.quotedForMessage); the modes are \(VisualMode.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            do { try show(mode) } catch { throw ControlFailure(.commandFailed, error.description) }
        case .nextShader:
            guard let shaders = tools.userShaders else { throw ControlFailure(.commandFailed, "shader: no shader folder is set (display.shader_dir)") }
            shaders.next()
        case .preset:
            guard try visual.perform(command) else { throw ControlFailure(.commandFailed, "preset: \(mode.rawValue) has no presets") }
        default:
            return try visual.perform(command)
        }
        return true
    }

    /// The square holding the empty circle in the middle of radial bars (bars and spectrum with
    /// `--layout radial`) on a `width`×`height` canvas; nil for other pictures.
    public func radialMiddle(width: Int, height: Int) -> PixelRect? {
        guard tools.radialRenderer != nil, mode.details?.drawsRadial == true, tools.userShaders?.isDrawing != true else { return nil }
        let circle = tools.display.radialLayout.circle(width: width, height: height)
        // Just inside the bars' start, so a bar at rest does not cover the picture's edge.
        let radius = Int((circle.inner - 2).rounded(.down))
        guard radius > 2 else { return nil }
        return PixelRect(x: Int(circle.x.rounded()) - radius, y: Int(circle.y.rounded()) - radius, width: 2 * radius, height: 2 * radius)
    }

    /// The color to clear the window to.
    /// The theme's name, as set.
    public var theme: String { tools.display.theme }

    public var clearColor: Color { tools.display.background.color(theme: tools.theme) }

    /// The picture's mean value (for the latency benchmarks' frame log).
    public var meanValue: Float { visual.meanValue }

    /// True when nothing on screen would change: the picture has settled and no user shader
    /// animates. The window then skips drawing.
    public var isAtRest: Bool { tools.userShaders == nil && visual.isAtRest }

    /// Releases what `feed` holds that is heard by `now` (`AudioFeed.release`), showing each
    /// buffer to the picture when it wants them (the spectrogram's columns come from every sample,
    /// however many a frame releases) and to `observe` (a recorder).
    public func release(_ feed: AudioFeed, heardBy now: Double, observe: ((AudioBuffer, Double) -> Void)? = nil) -> LevelReading {
        guard visual.wantsReleases else { return feed.release(heardBy: now, observe: observe) }
        guard let observe else { return feed.release(heardBy: now, observe: forward) }
        return feed.release(heardBy: now) { buffer, time in
            self.visual.released(buffer)
            observe(buffer, time)
        }
    }

    /// A buffer another visualizer released from the same feed (render's other outputs): the
    /// picture sees it as if released here.
    func receive(_ buffer: AudioBuffer) {
        if visual.wantsReleases { visual.released(buffer) }
    }

    /// Made once, so a frame that hands buffers to the picture allocates nothing.
    private lazy var forward: (AudioBuffer, Double) -> Void = { [unowned self] buffer, _ in self.visual.released(buffer) }

    /// Moves the picture on by `dt`: `reading` covers the audio released from `feed` this frame.
    public func update(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, canvasWidth: Int) {
        tools.userShaders?.refresh(now: now)
        if visual.needs.contains(.loudness) { feed.measureLoudness { LoudnessMeter() } }
        tools.prepareShaderInputs(feed: feed, dt: dt, time: now - startTime)
        let frame = clock.frame(reading: reading, feed: feed, dt: dt, now: now, canvasWidth: canvasWidth)
        visual.update(frame)
        lastFrame = frame
    }

    /// Seconds between the display's refreshes, for pictures whose scale follows their cost: they
    /// keep to the display's rate while they can (the pacer shows a part of it when even their
    /// least scale cannot). Nil in a render, where every frame is drawn whatever it costs.
    public var displayPeriod: Double?

    /// Draws into the top `height` pixels of a `width`×`windowHeight` window (already cleared).
    public func draw(width: Int, height: Int, windowHeight: Int, now: Double) {
        let beat = lastFrame?.beat ?? BeatPulse()
        visual.draw(VisualCanvas(width: width, height: height, windowHeight: windowHeight, time: now - startTime,
                                   beat: beat, beatLevel: lastFrame?.beatLevel ?? 0, beatPhase: lastFrame?.beatPhase ?? 0,
                                   displayPeriod: displayPeriod))
        if let message = tools.userShaders?.error { drawError(message, width: width, windowHeight: windowHeight) }
        tools.labels?.endFrame()
    }

    /// A shader's compiler message, in a band at the top of the window.
    private func drawError(_ message: String, width: Int, windowHeight: Int) {
        guard let labels = tools.labels else { return }
        let text = message.count > 160 ? String(message.prefix(157)) + "..." : message
        let size = labels.size(of: text)
        tools.rects.draw([(PixelRect(x: 0, y: 0, width: width, height: size.height + 8), Color(hex: 0x3A0A0A, alpha: 0.9))],
                         canvasWidth: width, canvasHeight: windowHeight)
        labels.draw(text, x: 6, y: 4, color: Color(hex: 0xFF8080), canvasWidth: width, canvasHeight: windowHeight)
    }
}
