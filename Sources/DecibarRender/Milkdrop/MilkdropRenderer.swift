import CGL
import CMilkdrop
import CSDL2
import DecibarCore

/// Draws Milkdrop presets through libprojectM 3.1 (Decibar's plug-in over it, `CMilkdrop`), into
/// a framebuffer of its own, then into a pixel rectangle of the canvas like a video frame. The
/// library changes OpenGL state freely; after each of its frames the state every other renderer
/// starts from is put back (`restoreState`), so what is drawn after it is drawn as without it.
///
/// A transition draws two presets, each by an engine of its own into its own framebuffer, and
/// blends them (`MilkdropTransitionRenderer`) before scaling up.
///
/// A change of scale makes the library start its picture again from black (its feedback textures
/// are made anew at the new size): the last picture is kept and faded into the new one while that
/// builds up, so the window never flashes dark when the dynamic scale moves.
///
/// One at a time per process: libprojectM 3.1 keeps its worker thread in a global.
public final class MilkdropRenderer {
    private let functions: DecibarMilkdrop
    private let instance: OpaquePointer
    private let pictures: PictureRenderer
    private let transitions: MilkdropTransitionRenderer
    /// Where each engine draws (the second's made with it), and where a transition blends them.
    private var targets: [Target] = [Target(), Target()]
    private var blendTarget = Target()
    /// The picture shown before a change of scale, faded out from `heldSince` over `rebuildSeconds`.
    private var held = Target()
    private var heldSince = 0.0
    /// About how long a preset takes to build its picture from black again at 15-60 frames a second.
    public static let rebuildSeconds = 1.0
    /// The fewest pixels a preset is drawn at on either side: libprojectM 3.1 draws nothing at 30
    /// or fewer (measured in windows: black at 29 and 30 rows, the preset at 31), which a terminal's
    /// cells (two pixels a row) or a small window at a lowered scale reach.
    public static let smallestSide = 64
    /// The engine showing the preset on screen; the other draws the incoming one in a transition.
    private var shownEngine = 0
    private var size = (width: 0, height: 0)
    private var interleaved: [Float] = []
    /// Where the library writes why a frame failed; kept, so a frame allocates nothing.
    private var frameMessage = [CChar](repeating: 0, count: 512)

    /// The plug-in's file name; it is looked for beside decibar, then in `lib/decibar` beside the
    /// installed binary's `bin/`, then in the source checkout's build folders.
    public static let pluginName = "libdecibar-milkdrop.so"

    /// Opens the plug-in (and with it libprojectM) once; why it cannot be, in the user's terms.
    public static func load() throws(RenderError) -> DecibarMilkdrop {
        let candidates = pluginCandidates()
        guard let path = candidates.first(where: ShaderLibrary.fileExists) else {
            throw RenderError("Milkdrop needs Decibar's plug-in \(pluginName), which is not installed (looked in "
                              + candidates.map { String($0.dropLast(pluginName.count + 1)) }.joined(separator: ", ") + ")")
        }
        var message = [CChar](repeating: 0, count: 512)
        guard let table = decibar_milkdrop_load(path, &message, Int32(message.count)) else {
            let reason = String(cMessage: message)
            if reason.contains("libprojectM") {
                throw RenderError("Milkdrop needs libprojectM 3, which is not installed (apt install libprojectm3)")
            }
            throw RenderError(reason)
        }
        return table.pointee
    }

    private static func pluginCandidates() -> [String] {
        var candidates: [String] = []
        if sdlLibrary.table != nil, let base = sdlFunctions.SDL_GetBasePath!() {
            let binary = String(cString: base)
            sdlFunctions.SDL_free!(base)
            candidates.append(binary + pluginName)
            candidates.append(binary + "../lib/decibar/" + pluginName)
        }
        // #filePath is Sources/DecibarRender/MilkdropRenderer.swift in the checkout.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        let checkout = parts.joined(separator: "/")
        candidates.append(checkout + "/.build/release/" + pluginName)
        candidates.append(checkout + "/.build/debug/" + pluginName)
        return candidates
    }

    /// Sets the clock every Milkdrop picture reads its `time` from (seconds); it must only go on.
    public static func setClock(_ seconds: Double) throws(RenderError) {
        let functions = try load()
        functions.decibar_milkdrop_set_clock!(Int64((seconds * 1_000_000).rounded()))
    }

    /// - Parameters:
    ///   - mesh: the grid the presets' per-vertex equations run on (they run on the CPU).
    ///   - fps: what presets are told the frame rate is.
    ///   - dataDirectory: where the library finds its textures (`presets/`, `textures/`).
    ///   - textureDirectory: one more folder of textures, searched with its subfolders and links.
    ///   - seed: where the C library's random numbers, which presets use, start.
    ///   - blendsPresets: whether presets will be blended: the second engine is then made now, not
    ///     as the first transition starts (see `decibar_milkdrop_add_engine`).
    public init(shaders: ShaderLibrary, width: Int, height: Int, mesh: (x: Int, y: Int), fps: Int, dataDirectory: String,
                textureDirectory: String? = nil, seed: UInt32, clock: Double, blendsPresets: Bool = false) throws(RenderError) {
        functions = try Self.load()
        pictures = try PictureRenderer.upscaler(shaders: shaders)
        transitions = MilkdropTransitionRenderer(shaders: shaders)
        // The library reads the clock as it starts: its `time` counts from here.
        functions.decibar_milkdrop_set_clock!(Int64((clock * 1_000_000).rounded()))
        let state = SavedBindings()
        let target: Target
        do throws(RenderError) {
            target = try Target(width: max(1, width), height: max(1, height))
        } catch {
            Self.restoreState(state)
            throw error
        }
        var message = [CChar](repeating: 0, count: 512)
        guard let made = functions.decibar_milkdrop_create!(Int32(max(1, width)), Int32(max(1, height)), Int32(mesh.x), Int32(mesh.y),
                                                            Int32(fps), dataDirectory, textureDirectory, seed, &message,
                                                            Int32(message.count)) else {
            target.delete()
            Self.restoreState(state)
            throw RenderError("Milkdrop: " + Self.text(message))
        }
        instance = made
        targets[0] = target
        size = (max(1, width), max(1, height))
        if blendsPresets {
            guard functions.decibar_milkdrop_add_engine!(instance, &message, Int32(message.count)) == 1 else {
                functions.decibar_milkdrop_destroy!(instance)
                target.delete()
                Self.restoreState(state)
                throw RenderError("Milkdrop: " + Self.text(message))
            }
        }
        Self.restoreState(state)
    }

    deinit {
        let state = SavedBindings()
        functions.decibar_milkdrop_destroy!(instance)
        for target in targets + [blendTarget, held] { target.delete() }
        Self.restoreState(state)
    }

    /// Shows the preset at `path` from the next frame (a hard cut), or with `incoming` loads it
    /// beside the one shown for a transition (`draw`'s `transition`); or says why it cannot be (what
    /// was shown keeps drawing). Either way, the textures it names that were found nowhere.
    public func loadPreset(_ path: String, incoming: Bool = false) -> (problem: String?, missingTextures: [String]) {
        let state = SavedBindings()
        defer { Self.restoreState(state) }
        var message = [CChar](repeating: 0, count: 512)
        var missing = [CChar](repeating: 0, count: 1024)
        let engine = incoming ? 1 - shownEngine : shownEngine
        // Another preset: the picture held across a change of scale is not what follows.
        dropHeldPicture()
        if targets[engine].framebuffer == 0 {
            do throws(RenderError) {
                targets[engine] = try Target(width: size.width, height: size.height)
            } catch {
                return (error.description, [])
            }
        }
        let loaded = functions.decibar_milkdrop_load_preset!(instance, Int32(engine), path, &message, Int32(message.count), &missing,
                                                             Int32(missing.count)) == 1
        let reason = Self.text(message)
        return (loaded ? nil : reason.isEmpty ? "it did not load" : reason, Self.text(missing).split(separator: "\n").map(String.init))
    }

    /// The incoming preset of a transition is the one shown from now on (drawn alone).
    public func finishTransition() {
        shownEngine = 1 - shownEngine
    }

    /// Hands over audio heard since the last frame: `left` and `right` of the same length.
    public func addAudio(left: UnsafeBufferPointer<Float>, right: UnsafeBufferPointer<Float>) {
        let count = min(left.count, right.count)
        guard count > 0 else { return }
        if interleaved.count < count * 2 { interleaved = [Float](repeating: 0, count: count * 2) }
        for index in 0 ..< count {
            interleaved[2 * index] = left[index]
            interleaved[2 * index + 1] = right[index]
        }
        interleaved.withUnsafeBufferPointer { functions.decibar_milkdrop_add_audio!(instance, $0.baseAddress, Int32(count)) }
    }

    /// How far a transition has gone and how it looks, for `draw`.
    public struct Blend {
        public var style: PresetTransitionStyle
        public var progress: Double
        public var variation: (Float, Float, Float, Float)

        public init(style: PresetTransitionStyle, progress: Double, variation: (Float, Float, Float, Float)) {
            self.style = style
            self.progress = progress
            self.variation = variation
        }
    }

    /// Draws the frame at `clock` seconds (the same clock as `init`'s) into `rect` (top-left
    /// origin) of a `canvasWidth`×`canvasHeight` canvas, the library drawing at `scale` of its
    /// size (then scaled up and sharpened); with `blend`, the preset shown giving way to the
    /// incoming one. `timer` times the drawing before the scaling.
    public func draw(clock: Double, in rect: PixelRect, scale: Double = 1, canvasWidth: Int, canvasHeight: Int,
                     timer: DrawTimer? = nil, blend: Blend? = nil) throws(RenderError) {
        guard rect.width > 0, rect.height > 0 else { return }
        let state = SavedBindings()
        let drawn = Self.drawnSize(width: rect.width, height: rect.height, scale: scale)
        if size != drawn {
            do throws(RenderError) {
                try resizeTargets(to: drawn, holding: blend == nil ? shownEngine : nil, at: clock)
            } catch {
                Self.restoreState(state)
                throw error
            }
            functions.decibar_milkdrop_resize!(instance, Int32(drawn.width), Int32(drawn.height))
        }
        functions.decibar_milkdrop_set_clock!(Int64((clock * 1_000_000).rounded()))
        let incoming = 1 - shownEngine
        let blending = blend != nil && targets[incoming].framebuffer != 0
        if blending { dropHeldPicture() }
        if blending, blendTarget.framebuffer == 0 {
            do throws(RenderError) {
                blendTarget = try Target(width: size.width, height: size.height)
            } catch {
                Self.restoreState(state)
                throw error
            }
        }
        timer?.begin()
        var rendered = renderEngine(shownEngine)
        if let blend, blending {
            // What the shown preset left set must not reach the incoming one's drawing or the blend.
            Self.restoreState(state)
            if rendered { rendered = renderEngine(incoming) }
            if rendered { Self.restoreState(state) }
            if rendered {
                glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), blendTarget.framebuffer)
                glFunctions.glViewport!(0, 0, GLsizei(size.width), GLsizei(size.height))
                do throws(RenderError) {
                    try transitions.draw(style: blend.style, outgoing: targets[shownEngine].texture, incoming: targets[incoming].texture,
                                         progress: blend.progress, variation: blend.variation, width: size.width, height: size.height)
                } catch {
                    Self.restoreState(state)
                    throw error
                }
            }
        }
        timer?.end()
        Self.restoreState(state)
        guard rendered else { throw RenderError("Milkdrop: " + Self.text(frameMessage)) }
        var shown = blending ? blendTarget.texture : targets[shownEngine].texture
        if held.framebuffer != 0 {
            let progress = (clock - heldSince) / Self.rebuildSeconds
            if progress >= 1 || progress < 0 {
                dropHeldPicture()
            } else if fadeFromHeld(into: targets[shownEngine].texture, progress: progress) {
                shown = blendTarget.texture
            }
            Self.restoreState(state)
        }
        pictures.draw(texture: shown, bottomRowFirst: true, in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight,
                      sharpness: PictureRenderer.sharpness(upscaledBy: Double(rect.width) / Double(size.width)))
    }

    /// The size a `width`×`height` picture is drawn at, at `scale`: never under `smallestSide` on
    /// either side, a smaller picture drawn larger and scaled down.
    public static func drawnSize(width: Int, height: Int, scale: Double) -> (width: Int, height: Int) {
        let scale = max(scale, Double(smallestSide) / Double(max(1, min(width, height))))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// Draws one engine's frame into its framebuffer; false with the reason in `frameMessage`. The
    /// library leaves its GL state behind: the caller puts Decibar's back.
    private func renderEngine(_ engine: Int) -> Bool {
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), targets[engine].framebuffer)
        glFunctions.glViewport!(0, 0, GLsizei(size.width), GLsizei(size.height))
        return functions.decibar_milkdrop_render!(instance, Int32(engine), &frameMessage, Int32(frameMessage.count)) == 1
    }

    /// Draws the held picture fading into `texture` into the blend target; false if that cannot be
    /// made (the new picture is then shown alone).
    private func fadeFromHeld(into texture: GLuint, progress: Double) -> Bool {
        if blendTarget.framebuffer == 0 {
            guard let made = try? Target(width: size.width, height: size.height) else {
                dropHeldPicture()
                return false
            }
            blendTarget = made
        }
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), blendTarget.framebuffer)
        glFunctions.glViewport!(0, 0, GLsizei(size.width), GLsizei(size.height))
        do {
            try transitions.draw(style: .blend, outgoing: held.texture, incoming: texture, progress: progress,
                                 variation: (0, 0, 0, 0), width: size.width, height: size.height)
            return true
        } catch {
            dropHeldPicture()
            return false
        }
    }

    private func dropHeldPicture() {
        held.delete()
        held = Target()
    }

    /// Makes every framebuffer in use again at the size drawn. The picture on screen is kept to
    /// fade from when `holding` names the engine shown (no transition runs): that engine's, or
    /// during a fade from an earlier change, the fade as last drawn.
    private func resizeTargets(to drawn: (width: Int, height: Int), holding: Int?, at clock: Double) throws(RenderError) {
        let inUse = targets.map { $0.framebuffer != 0 }
        if let holding, inUse[holding] {
            if held.framebuffer != 0, blendTarget.framebuffer != 0 {
                held.delete()
                held = blendTarget
                blendTarget = Target()
                targets[holding].delete()
            } else {
                held.delete()
                held = targets[holding]
            }
            targets[holding] = Target()
            heldSince = clock
        }
        for index in targets.indices where inUse[index] {
            targets[index].delete()
            targets[index] = Target()
            targets[index] = try Target(width: drawn.width, height: drawn.height)
        }
        // Made again when a transition or a fade next needs it.
        blendTarget.delete()
        blendTarget = Target()
        size = drawn
    }

    /// A texture and a framebuffer drawing into it (zeros: none made).
    private struct Target {
        var framebuffer: GLuint = 0
        var texture: GLuint = 0

        init() {}

        init(width: Int, height: Int) throws(RenderError) {
            (framebuffer, texture) = try MilkdropRenderer.makeFramebuffer(width: width, height: height)
        }

        func delete() {
            MilkdropRenderer.deleteFramebuffer((framebuffer, texture))
        }
    }

    /// A texture of `width`×`height` and a framebuffer drawing into it.
    private static func makeFramebuffer(width: Int, height: Int) throws(RenderError) -> (framebuffer: GLuint, texture: GLuint) {
        var texture: GLuint = 0
        var framebuffer: GLuint = 0
        glFunctions.glGenTextures!(1, &texture)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), texture)
        glFunctions.glTexImage2D!(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(width), GLsizei(height), 0, GLenum(GL_RGBA),
                                  GLenum(GL_UNSIGNED_BYTE), nil)
        // Scaled up smoothly; at its own size every pixel is sampled at a texel's center, exactly.
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glFunctions.glTexParameteri!(GLenum(GL_TEXTURE_2D), GLenum(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
        glFunctions.glGenFramebuffers!(1, &framebuffer)
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFunctions.glFramebufferTexture2D!(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), texture, 0)
        guard glFunctions.glCheckFramebufferStatus!(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            deleteFramebuffer((framebuffer, texture))
            throw RenderError("Milkdrop: a \(width)x\(height) framebuffer is not possible here")
        }
        // A new texture holds whatever memory it was given (on llvmpipe, the heap's leftovers), and a
        // preset may blend its first frames over it: start from black, the same every time.
        glFunctions.glClearColor!(0, 0, 0, 0)
        glFunctions.glClear!(GLbitfield(GL_COLOR_BUFFER_BIT))
        return (framebuffer, texture)
    }

    private static func deleteFramebuffer(_ target: (framebuffer: GLuint, texture: GLuint)) {
        var (framebuffer, texture) = target
        if framebuffer != 0 { glFunctions.glDeleteFramebuffers!(1, &framebuffer) }
        if texture != 0 { glFunctions.glDeleteTextures!(1, &texture) }
    }

    private static func text(_ message: [CChar]) -> String {
        String(cMessage: message)
    }

    /// The framebuffers and viewport in use when the library was called.
    private struct SavedBindings {
        var drawFramebuffer: GLint = 0
        var readFramebuffer: GLint = 0
        /// x, y, width, height (a tuple: saving it allocates nothing).
        var viewport: (GLint, GLint, GLint, GLint) = (0, 0, 0, 0)

        init() {
            glFunctions.glGetIntegerv!(GLenum(GL_DRAW_FRAMEBUFFER_BINDING), &drawFramebuffer)
            glFunctions.glGetIntegerv!(GLenum(GL_READ_FRAMEBUFFER_BINDING), &readFramebuffer)
            withUnsafeMutableBytes(of: &viewport) {
                glFunctions.glGetIntegerv!(GLenum(GL_VIEWPORT), $0.baseAddress!.assumingMemoryBound(to: GLint.self))
            }
        }
    }

    /// Puts back the state Decibar's renderers start from: OpenGL's defaults for everything they
    /// do not set themselves each time (the library leaves blending, samplers, textures on other
    /// units, pixel-store and line settings as its preset wanted them).
    private static let capabilitiesOff = [GL_BLEND, GL_DEPTH_TEST, GL_CULL_FACE, GL_SCISSOR_TEST, GL_STENCIL_TEST, GL_LINE_SMOOTH,
                                          GL_POLYGON_SMOOTH, GL_PROGRAM_POINT_SIZE, GL_FRAMEBUFFER_SRGB, GL_SAMPLE_ALPHA_TO_COVERAGE]

    private static func restoreState(_ saved: SavedBindings) {
        for capability in capabilitiesOff { glFunctions.glDisable!(GLenum(capability)) }
        glFunctions.glBlendFuncSeparate!(GLenum(GL_ONE), GLenum(GL_ZERO), GLenum(GL_ONE), GLenum(GL_ZERO))
        glFunctions.glBlendEquation!(GLenum(GL_FUNC_ADD))
        glFunctions.glColorMask!(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        glFunctions.glPolygonMode!(GLenum(GL_FRONT_AND_BACK), GLenum(GL_FILL))
        glFunctions.glLineWidth!(1)
        glFunctions.glUseProgram!(0)
        glFunctions.glBindVertexArray!(0)
        glFunctions.glBindBuffer!(GLenum(GL_ARRAY_BUFFER), 0)
        for unit in (0 ..< 8).reversed() {
            glFunctions.glActiveTexture!(GLenum(GL_TEXTURE0 + Int32(unit)))
            glFunctions.glBindTexture!(GLenum(GL_TEXTURE_2D), 0)
            glFunctions.glBindSampler!(GLuint(unit), 0)
        }
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ALIGNMENT), 4)
        glFunctions.glPixelStorei!(GLenum(GL_UNPACK_ROW_LENGTH), 0)
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ALIGNMENT), 4)
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ROW_LENGTH), 0)
        glFunctions.glBindFramebuffer!(GLenum(GL_DRAW_FRAMEBUFFER), GLuint(saved.drawFramebuffer))
        glFunctions.glBindFramebuffer!(GLenum(GL_READ_FRAMEBUFFER), GLuint(saved.readFramebuffer))
        glFunctions.glViewport!(saved.viewport.0, saved.viewport.1, saved.viewport.2, saved.viewport.3)
        // Errors the library left would be blamed on whatever checks next.
        for _ in 0 ..< 16 { if glFunctions.glGetError!() == GLenum(GL_NO_ERROR) { break } }
    }
}
