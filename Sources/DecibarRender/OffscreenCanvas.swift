import CEGL
import CGL
import DecibarCore
import Foundation
import Synchronization

/// An OpenGL 3.3 core context with no window and no display (EGL on Mesa's surfaceless platform),
/// drawing into a framebuffer object of a fixed size. Frames are read back with `readPixels`.
/// Create, use and destroy it on one thread. Several may live at once (a render's outputs): each
/// has its own context, made current with `makeCurrent` before drawing into it. As a `Surface` it
/// shows nothing and hears no input: a loop drawn on it keeps its frames for whoever reads them.
public final class OffscreenCanvas: Surface {
    /// Canvases alive: EGL's display is one for all of them, terminated when the last one goes.
    private static let alive = Mutex(0)
    public let width: Int
    public let height: Int
    public var title = ""
    private let display: EGLDisplay
    private let context: EGLContext
    private var framebuffer: GLuint = 0
    private var color: GLuint = 0
    /// The last frame read back whole (`readPixels`), and a band of it (`readNV12`): made on first use.
    private var pixels: [UInt8] = []
    private var band: [UInt8] = []
    private var nv12: [UInt8] = []
    /// Rows read back and converted at a time: 32 rows of 1920 pixels stay in the cache (240 KB).
    private static let bandRows = 32

    public init(width: Int, height: Int) throws(RenderError) {
        if let failure = eglLibrary.failure ?? glLibrary.failure { throw RenderError("cannot draw: \(failure)") }
        self.width = width
        self.height = height
        // Surfaceless needs no X server or GPU device; the default display is the fallback.
        var found = eglFunctions.eglGetPlatformDisplay!(EGLenum(EGL_PLATFORM_SURFACELESS_MESA), decibar_egl_default_display(), nil)
        if found == decibar_egl_no_display() { found = eglFunctions.eglGetDisplay!(decibar_egl_default_display()) }
        guard let display = found, display != decibar_egl_no_display() else {
            throw RenderError("cannot draw offscreen: no EGL display")
        }
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglFunctions.eglInitialize!(display, &major, &minor) == EGL_TRUE else {
            throw RenderError("cannot draw offscreen: EGL did not start (error \(Self.lastError))")
        }
        guard eglFunctions.eglBindAPI!(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else {
            _ = eglFunctions.eglTerminate!(display)
            throw RenderError("cannot draw offscreen: EGL has no desktop OpenGL")
        }
        // The default surface type is a window, which a surfaceless display has none of.
        let configAttributes: [EGLint] = [EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                          EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, 8, EGL_NONE]
        var config: EGLConfig?
        var count: EGLint = 0
        guard eglFunctions.eglChooseConfig!(display, configAttributes, &config, 1, &count) == EGL_TRUE, count > 0, let config else {
            _ = eglFunctions.eglTerminate!(display)
            throw RenderError("cannot draw offscreen: no EGL configuration with RGBA")
        }
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                           EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE]
        guard let context = eglFunctions.eglCreateContext!(display, config, decibar_egl_no_context(), contextAttributes),
              context != decibar_egl_no_context() else {
            _ = eglFunctions.eglTerminate!(display)
            throw RenderError("cannot draw offscreen: no OpenGL 3.3 context (error \(Self.lastError))")
        }
        guard eglFunctions.eglMakeCurrent!(display, decibar_egl_no_surface(), decibar_egl_no_surface(), context) == EGL_TRUE else {
            _ = eglFunctions.eglDestroyContext!(display, context)
            _ = eglFunctions.eglTerminate!(display)
            throw RenderError("cannot draw offscreen: the context cannot be made current (error \(Self.lastError))")
        }
        self.display = display
        self.context = context
        Self.alive.withLock { $0 += 1 }

        glFunctions.glGenFramebuffers!(1, &framebuffer)
        glFunctions.glBindFramebuffer!(GLenum(GL_FRAMEBUFFER), framebuffer)
        glFunctions.glGenRenderbuffers!(1, &color)
        glFunctions.glBindRenderbuffer!(GLenum(GL_RENDERBUFFER), color)
        glFunctions.glRenderbufferStorage!(GLenum(GL_RENDERBUFFER), GLenum(GL_RGBA8), GLsizei(width), GLsizei(height))
        glFunctions.glFramebufferRenderbuffer!(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_RENDERBUFFER), color)
        guard glFunctions.glCheckFramebufferStatus!(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            throw RenderError("cannot draw offscreen: a \(width)x\(height) framebuffer is not possible here")
        }
        glFunctions.glViewport!(0, 0, GLsizei(width), GLsizei(height))
    }

    deinit {
        makeCurrent()
        glFunctions.glDeleteRenderbuffers!(1, &color)
        glFunctions.glDeleteFramebuffers!(1, &framebuffer)
        _ = eglFunctions.eglMakeCurrent!(display, decibar_egl_no_surface(), decibar_egl_no_surface(), decibar_egl_no_context())
        _ = eglFunctions.eglDestroyContext!(display, context)
        let last = Self.alive.withLock { count in
            count -= 1
            return count == 0
        }
        if last { _ = eglFunctions.eglTerminate!(display) }
    }

    /// Makes this canvas's context the thread's, drawing into its framebuffer.
    public func makeCurrent() {
        _ = eglFunctions.eglMakeCurrent!(display, decibar_egl_no_surface(), decibar_egl_no_surface(), context)
    }

    private static var lastError: String { "0x" + String(eglFunctions.eglGetError!(), radix: 16) }

    /// Waits until everything drawn so far is done (for timing what drawing costs).
    public func finish() {
        glFunctions.glFinish!()
    }

    /// Whether `readNV12` can convert a frame of this size (4:2:0 needs an even width and height).
    public var readsNV12: Bool { width % 2 == 0 && height % 2 == 0 }

    /// The frame just drawn as NV12 (see `NV12Frame`), top row first: what the H.264 encoder takes,
    /// in 1.5 bytes a pixel rather than RGBA's 4. `body` sees the bytes until the next call.
    public func readNV12(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        if nv12.isEmpty { nv12 = [UInt8](repeating: 0, count: NV12Frame.byteCount(width: width, height: height)) }
        nv12.withUnsafeMutableBytes { out in readNV12(into: out) }
        try nv12.withUnsafeBytes(body)
    }

    /// The frame just drawn as NV12 into `out` (at least `NV12Frame.byteCount` bytes), top row first.
    public func readNV12(into out: UnsafeMutableRawBufferPointer) {
        glFunctions.glFinish!()
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ALIGNMENT), 1)
        if band.isEmpty { band = [UInt8](repeating: 0, count: width * Self.bandRows * 4) }
        // OpenGL's rows count from the bottom: the band from row `bottom` up is the frame's rows
        // from `height - bottom - rows` down.
        var bottom = 0
        while bottom < height {
            let rows = min(Self.bandRows, height - bottom)
            band.withUnsafeMutableBytes { bytes in
                glFunctions.glReadPixels!(0, GLint(bottom), GLsizei(width), GLsizei(rows), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
                NV12Frame.convert(band: UnsafeRawBufferPointer(bytes), width: width, rows: rows, topRow: height - bottom - rows,
                                  frameHeight: height, into: out)
            }
            bottom += rows
        }
    }

    /// The frame just drawn, RGBA, bottom row first; valid until the next call.
    public func readRGBA() -> [UInt8] {
        glFunctions.glFinish!()
        if pixels.isEmpty { pixels = [UInt8](repeating: 0, count: width * height * 4) }
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ALIGNMENT), 1)
        pixels.withUnsafeMutableBytes { bytes in
            glFunctions.glReadPixels!(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
        return pixels
    }

    // Surface: no display, no input; frames wait to be read.
    public var drawableSize: (width: Int, height: Int) { (width, height) }
    public var refreshRate: Double? { nil }
    public var requestedVSync: Bool { false }
    public var isFullyCovered: Bool { false }
    public func pollEvents() -> [SurfaceEvent] { [] }
    public func waitForEvent(timeout: Double) { Thread.sleep(forTimeInterval: max(0, timeout)) }
    public func stopWaitingForVSync() {}
    public func finishDrawing() { finish() }
    public func present() { finish() }
    public func toggleFullscreen() {}

    public func readPixels(into pixels: inout [UInt8], width: Int, height: Int) {
        precondition(pixels.count >= width * height * 4, "pixel buffer too small")
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ALIGNMENT), 1)
        pixels.withUnsafeMutableBytes { bytes in
            glFunctions.glReadPixels!(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
    }
}
