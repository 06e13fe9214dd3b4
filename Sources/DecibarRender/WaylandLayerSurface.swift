import CEGL
import CGL
import CWayland
import DecibarCore
import Glibc

/// A layer of a Wayland desktop (wlr-layer-shell: sway, Hyprland, KDE, river, labwc...) with an
/// OpenGL 3.3 core context through EGL: libwayland-client's adapter. SDL2 cannot give a surface
/// this role, so `Window` uses this instead of SDL for a desktop layer on Wayland.
///
/// Frames are paced by the compositor: each one shown asks for a frame callback, and the next is
/// drawn only once it came (`isWaitingForFrame`). A surface that cannot be seen (covered, its
/// output off) gets no callbacks, so nothing is drawn and the loop sleeps. Create, use and destroy
/// it on one thread.
final class WaylandLayerSurface {
    /// An output (monitor) the compositor announced.
    final class Output {
        let proxy: OpaquePointer
        let globalName: UInt32
        var name: String?
        var scale = 1
        /// mHz, 0 unknown.
        var refresh: Int32 = 0

        init(proxy: OpaquePointer, globalName: UInt32) {
            self.proxy = proxy
            self.globalName = globalName
        }
    }

    /// Something the compositor said, for `Window.pollEvents`.
    enum Event {
        case resized
        case closed
    }

    private let display: OpaquePointer
    private let registry: OpaquePointer
    private var compositor: OpaquePointer?
    private var layerShell: OpaquePointer?
    private var layerShellVersion: UInt32 = 0
    private(set) var outputs: [Output] = []
    private var surface: OpaquePointer?
    private var layerSurface: OpaquePointer?
    private var eglWindow: OpaquePointer?
    private var eglDisplay: EGLDisplay?
    private var eglContext: EGLContext?
    private var eglSurface: EGLSurface?
    private var frameCallback: OpaquePointer?
    /// Listeners need fixed addresses for as long as their objects live.
    private let listeners: Listeners
    /// What `dispatch` polls: the compositor's socket and the wake-up.
    private let descriptors = UnsafeMutablePointer<pollfd>.allocate(capacity: 2)
    /// Wakes `waitForEvent` from other threads (`Window.wakeEventLoop`).
    let wakeDescriptor: Int32

    /// The output chosen with --monitor (nil: the compositor's choice).
    private var chosenOutput: Output?
    /// Surface size in logical pixels, from the last configure.
    private var logicalSize = (width: 0, height: 0)
    /// The last configure not acknowledged yet.
    private var configureSerial: UInt32?
    private var configureCount = 0
    /// Buffer scale: the scale of the output the surface is on.
    private(set) var scale = 1
    private var isMapped = false
    /// Unmapped by `hide`: the compositor sends a new size before the surface shows again.
    private var needsConfigure = false
    private var isClosed = false
    private var events: [Event] = []

    /// A frame shown, its callback not come yet: drawing now would be for nothing (and could block
    /// for a buffer the compositor keeps).
    var isWaitingForFrame: Bool { frameCallback != nil }

    /// The size of the drawing surface in pixels.
    var drawableSize: (width: Int, height: Int) { (logicalSize.width * scale, logicalSize.height * scale) }

    /// The refresh rate of the surface's output, when the compositor said.
    var refreshRate: Double? {
        let output = chosenOutput ?? enteredOutput ?? outputs.first
        guard let refresh = output?.refresh, refresh > 0 else { return nil }
        return Double(refresh) / 1000
    }
    private var enteredOutput: Output?

    /// Connects to the compositor and makes the layer surface; nil when the compositor has no
    /// layer shell (GNOME). Throws a one-line reason for everything else (no compositor, no monitor
    /// of that name, no EGL).
    static func open(layer: DesktopLayer, monitor: String?, placement: LayerPlacement, transparent: Bool) throws(RenderError) -> WaylandLayerSurface? {
        if let failure = waylandLibrary.failure ?? waylandEGLLibrary.failure ?? eglLibrary.failure ?? glLibrary.failure {
            throw RenderError("cannot make a desktop layer: \(failure)")
        }
        guard let display = waylandFunctions.wl_display_connect!(nil) else { throw connectionFailure() }
        let surface = try WaylandLayerSurface(display: display)
        guard surface.layerShell != nil, surface.compositor != nil else { return nil }
        try surface.makeLayer(layer, monitor: monitor, placement: placement, transparent: transparent)
        return surface
    }

    /// Whether the compositor offers a seat (input). SDL 2.26 crashes opening a window on one
    /// that offers none (a headless or kiosk compositor); nil without libwayland-client. Throws
    /// when there is no compositor to ask (SDL would only say "no display").
    static func compositorHasSeat() throws(RenderError) -> Bool? {
        guard waylandLibrary.failure == nil else { return nil }
        guard let display = waylandFunctions.wl_display_connect!(nil) else { throw connectionFailure() }
        defer { waylandFunctions.wl_display_disconnect!(display) }
        guard let registry = wl_display_get_registry(display) else { return nil }
        defer { wl_registry_destroy(registry) }
        final class Found { var seat = false }
        let found = Found()
        var listener = wl_registry_listener(
            global: { data, _, _, interface, _ in
                if let interface, String(cString: interface) == "wl_seat" {
                    Unmanaged<Found>.fromOpaque(data!).takeUnretainedValue().seat = true
                }
            },
            global_remove: { _, _, _ in })
        return withUnsafeMutablePointer(to: &listener) { listener in
            wl_registry_add_listener(registry, listener, Unmanaged.passUnretained(found).toOpaque())
            guard waylandFunctions.wl_display_roundtrip!(display) >= 0 else { return nil }
            return found.seat
        }
    }

    /// The compositor named by WAYLAND_DISPLAY is not there, in one line (after a failed connect).
    private static func connectionFailure() -> RenderError {
        let reason = String(cString: strerror(errno))
        let name = getenv("WAYLAND_DISPLAY").map { String(cString: $0) } ?? "wayland-0"
        return RenderError("cannot connect to the Wayland compositor '\(name.escapingControlCharacters)': \(reason)")
    }

    private init(display: OpaquePointer) throws(RenderError) {
        self.display = display
        listeners = Listeners()
        wakeDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard let registry = wl_display_get_registry(display) else {
            waylandFunctions.wl_display_disconnect!(display)
            throw RenderError("cannot make a desktop layer: the compositor gave no registry")
        }
        self.registry = registry
        wl_registry_add_listener(registry, listeners.registry, Unmanaged.passUnretained(self).toOpaque())
        // The globals, then what the outputs say about themselves (name, scale, mode).
        _ = waylandFunctions.wl_display_roundtrip!(display)
        _ = waylandFunctions.wl_display_roundtrip!(display)
    }

    deinit {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        if let eglDisplay {
            // Released only if it is ours: a window made before this one went (the daemon's,
            // for new layer settings) has its context current by now.
            if eglFunctions.eglGetCurrentContext!() == eglContext {
                _ = eglFunctions.eglMakeCurrent!(eglDisplay, decibar_egl_no_surface(), decibar_egl_no_surface(), decibar_egl_no_context())
            }
            if let eglSurface { _ = eglFunctions.eglDestroySurface!(eglDisplay, eglSurface) }
            if let eglContext { _ = eglFunctions.eglDestroyContext!(eglDisplay, eglContext) }
            _ = eglFunctions.eglTerminate!(eglDisplay)
        }
        if let eglWindow { waylandEGLFunctions.wl_egl_window_destroy!(eglWindow) }
        if let layerSurface { zwlr_layer_surface_v1_destroy(layerSurface) }
        if let surface { wl_surface_destroy(surface) }
        if let layerShell {
            if layerShellVersion >= 3 { zwlr_layer_shell_v1_destroy(layerShell) } else { waylandFunctions.wl_proxy_destroy!(layerShell) }
        }
        for output in outputs { release(output) }
        if let compositor { wl_compositor_destroy(compositor) }
        wl_registry_destroy(registry)
        _ = waylandFunctions.wl_display_flush!(display)
        waylandFunctions.wl_display_disconnect!(display)
        close(wakeDescriptor)
        descriptors.deallocate()
    }

    // MARK: Making the layer

    private func makeLayer(_ layer: DesktopLayer, monitor: String?, placement: LayerPlacement, transparent: Bool) throws(RenderError) {
        if let monitor, !monitor.isEmpty {
            guard let named = outputs.first(where: { $0.name == monitor }) else {
                let names = outputs.compactMap(\.name)
                if names.isEmpty { throw RenderError("no monitor '\(monitor.escapingControlCharacters)': this compositor does not name its outputs") }
                throw RenderError("no monitor '\(monitor.escapingControlCharacters)' (there \(names.count == 1 ? "is" : "are"): \(names.joined(separator: ", ")))")
            }
            chosenOutput = named
            scale = named.scale
        }
        guard let compositor, let layerShell, let surface = wl_compositor_create_surface(compositor) else {
            throw RenderError("cannot make a desktop layer: the compositor made no surface")
        }
        self.surface = surface
        wl_surface_add_listener(surface, listeners.surface, Unmanaged.passUnretained(self).toOpaque())
        // Click-through: an empty input region sends every click to what is below.
        if let region = wl_compositor_create_region(compositor) {
            wl_surface_set_input_region(surface, region)
            wl_region_destroy(region)
        }
        if scale > 1 { wl_surface_set_buffer_scale(surface, Int32(scale)) }
        // Opaque unless see-through: the compositor need not draw what is under it.
        if !transparent, let region = wl_compositor_create_region(compositor) {
            wl_region_add(region, 0, 0, Int32.max, Int32.max)
            wl_surface_set_opaque_region(surface, region)
            wl_region_destroy(region)
        }
        let shellLayer: UInt32 = switch layer {
        case .window, .background: ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND.rawValue
        case .bottom: ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM.rawValue
        case .top: ZWLR_LAYER_SHELL_V1_LAYER_TOP.rawValue
        case .overlay: ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY.rawValue
        }
        guard let layerSurface = zwlr_layer_shell_v1_get_layer_surface(layerShell, surface, chosenOutput?.proxy, shellLayer, "decibar") else {
            throw RenderError("cannot make a desktop layer: the compositor made no layer surface")
        }
        self.layerSurface = layerSurface
        zwlr_layer_surface_v1_add_listener(layerSurface, listeners.layerSurface, Unmanaged.passUnretained(self).toOpaque())
        let size = placement.layerShellSize
        zwlr_layer_surface_v1_set_anchor(layerSurface, placement.layerShellEdges)
        zwlr_layer_surface_v1_set_size(layerSurface, UInt32(size.width), UInt32(size.height))
        let margin = Int32(placement.margin)
        zwlr_layer_surface_v1_set_margin(layerSurface, margin, margin, margin, margin)
        // A wallpaper spreads under panels too; a strip does not push windows aside.
        zwlr_layer_surface_v1_set_exclusive_zone(layerSurface, placement.anchor == .fill ? -1 : 0)
        zwlr_layer_surface_v1_set_keyboard_interactivity(layerSurface, 0)
        try awaitConfigure()
        try makeContext(transparent: transparent)
    }

    /// Commits the surface's state without a buffer and waits (5 s at most) for the compositor's size.
    private func awaitConfigure() throws(RenderError) {
        guard let surface else { return }
        let configuredBefore = configureCount
        wl_surface_commit(surface)
        let deadline = Self.now() + 5
        while configureCount == configuredBefore && !isClosed {
            let left = deadline - Self.now()
            guard left > 0 else { throw RenderError("cannot make a desktop layer: the compositor gave it no size within 5 s") }
            guard dispatch(timeout: min(left, 0.5)) else {
                throw RenderError("cannot make a desktop layer: the compositor refused it (\(protocolError))")
            }
        }
        if isClosed { throw RenderError("cannot make a desktop layer: the compositor closed it at once") }
        acknowledgeConfigure()
        needsConfigure = false
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    private func acknowledgeConfigure() {
        guard let serial = configureSerial, let layerSurface else { return }
        zwlr_layer_surface_v1_ack_configure(layerSurface, serial)
        configureSerial = nil
    }

    private var protocolError: String {
        let code = waylandFunctions.wl_display_get_error!(display)
        return code == 0 ? "no error" : String(cString: strerror(code))
    }

    private func makeContext(transparent: Bool) throws(RenderError) {
        guard let surface else { return }
        func fail(_ what: String) -> RenderError {
            RenderError("cannot make a desktop layer: \(what) (EGL error 0x\(String(eglFunctions.eglGetError!(), radix: 16)))")
        }
        guard let eglDisplay = eglFunctions.eglGetPlatformDisplay!(EGLenum(EGL_PLATFORM_WAYLAND_KHR), UnsafeMutableRawPointer(display), nil),
              eglDisplay != decibar_egl_no_display() else { throw fail("no EGL display for Wayland") }
        self.eglDisplay = eglDisplay
        var major: EGLint = 0
        var minor: EGLint = 0
        guard eglFunctions.eglInitialize!(eglDisplay, &major, &minor) == EGL_TRUE else { throw fail("EGL did not start") }
        guard eglFunctions.eglBindAPI!(EGLenum(EGL_OPENGL_API)) == EGL_TRUE else { throw fail("EGL has no desktop OpenGL") }
        let attributes: [EGLint] = [EGL_SURFACE_TYPE, EGL_WINDOW_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8, EGL_GREEN_SIZE, 8,
                                    EGL_BLUE_SIZE, 8, EGL_ALPHA_SIZE, transparent ? 8 : 0, EGL_NONE]
        // At least the sizes asked, largest first: 10-bit colors come before 8-bit ones, and a
        // compositor drawing in software converts those on every frame (sway: 30 frames a second
        // instead of 56 at 1280x720). 8 bits a color, and alpha only when it is wanted.
        var configs = [EGLConfig?](repeating: nil, count: 64)
        var count: EGLint = 0
        guard eglFunctions.eglChooseConfig!(eglDisplay, attributes, &configs, EGLint(configs.count), &count) == EGL_TRUE, count > 0 else {
            throw fail("no EGL configuration for a window")
        }
        func size(_ config: EGLConfig?, _ attribute: EGLint) -> EGLint {
            var value: EGLint = 0
            _ = eglFunctions.eglGetConfigAttrib!(eglDisplay, config, attribute, &value)
            return value
        }
        let found = configs.prefix(Int(count))
        let exact = found.first { config in
            [EGL_RED_SIZE, EGL_GREEN_SIZE, EGL_BLUE_SIZE].allSatisfy { size(config, $0) == 8 } && size(config, EGL_ALPHA_SIZE) == (transparent ? 8 : 0)
        }
        guard let config = exact ?? found.first ?? nil else { throw fail("no EGL configuration for a window") }
        let contextAttributes: [EGLint] = [EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                           EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE]
        guard let context = eglFunctions.eglCreateContext!(eglDisplay, config, decibar_egl_no_context(), contextAttributes),
              context != decibar_egl_no_context() else { throw fail("no OpenGL 3.3 context") }
        eglContext = context
        let (width, height) = drawableSize
        guard let eglWindow = waylandEGLFunctions.wl_egl_window_create!(surface, Int32(max(1, width)), Int32(max(1, height))) else {
            throw fail("no EGL window")
        }
        self.eglWindow = eglWindow
        guard let eglSurface = eglFunctions.eglCreateWindowSurface!(eglDisplay, config, UInt(bitPattern: UnsafeRawPointer(eglWindow)), nil),
              eglSurface != decibar_egl_no_surface() else { throw fail("no EGL surface") }
        self.eglSurface = eglSurface
        guard eglFunctions.eglMakeCurrent!(eglDisplay, eglSurface, eglSurface, context) == EGL_TRUE else { throw fail("the context cannot be made current") }
        // The compositor paces the frames (frame callbacks); a swap never waits.
        _ = eglFunctions.eglSwapInterval!(eglDisplay, 0)
    }

    // MARK: Frames

    /// Makes its context current again (another window's took its place on this thread).
    func makeCurrent() {
        guard let eglDisplay, let eglSurface, let eglContext else { return }
        _ = eglFunctions.eglMakeCurrent!(eglDisplay, eglSurface, eglSurface, eglContext)
    }

    /// Shows the frame drawn and asks to hear when the compositor wants the next.
    func swap() {
        // (Unmapped, a buffer before the new configure would be a protocol error.)
        guard let surface, let eglDisplay, let eglSurface, !isClosed, !needsConfigure else { return }
        if frameCallback == nil, let callback = wl_surface_frame(surface) {
            frameCallback = callback
            wl_callback_add_listener(callback, listeners.frame, Unmanaged.passUnretained(self).toOpaque())
        }
        _ = eglFunctions.eglSwapBuffers!(eglDisplay, eglSurface)
        isMapped = true
    }

    /// Takes the surface off the screen; `show` brings it back.
    func hide() {
        guard let surface, isMapped else { return }
        wl_surface_attach(surface, nil, 0, 0)
        wl_surface_commit(surface)
        isMapped = false
        needsConfigure = true
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
        _ = waylandFunctions.wl_display_flush!(display)
    }

    /// After `hide`: an unmapped layer surface starts over with a configure; the next swap shows it.
    /// (A surface never shown yet needs nothing: its first swap shows it.)
    func show() {
        guard needsConfigure, eglSurface != nil else { return }
        try? awaitConfigure()
    }

    // MARK: Events

    /// Reads what the compositor sent, waiting up to `timeout` seconds (0: not at all) or until
    /// `Window.wakeEventLoop`. False when the connection is gone.
    @discardableResult
    func dispatch(timeout: Double) -> Bool {
        while waylandFunctions.wl_display_prepare_read!(display) != 0 {
            guard waylandFunctions.wl_display_dispatch_pending!(display) >= 0 else { return false }
        }
        // A full socket (EAGAIN) is flushed at the next turn; a broken one shows on reading.
        _ = waylandFunctions.wl_display_flush!(display)
        // (Kept between calls: this runs every frame, and allocates nothing.)
        descriptors[0] = pollfd(fd: waylandFunctions.wl_display_get_fd!(display), events: Int16(POLLIN), revents: 0)
        descriptors[1] = pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = timeout <= 0 ? 0 : Int32(max(1, min(60_000, (timeout * 1000).rounded(.up))))
        var ready: Int32
        repeat { ready = poll(descriptors, 2, milliseconds) } while ready < 0 && errno == EINTR
        if ready > 0 && descriptors[0].revents != 0 {
            guard waylandFunctions.wl_display_read_events!(display) >= 0 else { return false }
        } else {
            waylandFunctions.wl_display_cancel_read!(display)
        }
        if descriptors[1].revents != 0 {
            var count: UInt64 = 0
            _ = read(wakeDescriptor, &count, 8)
        }
        guard waylandFunctions.wl_display_dispatch_pending!(display) >= 0 else { return false }
        return waylandFunctions.wl_display_get_error!(display) == 0
    }

    /// What happened since the last call.
    func takeEvents() -> [Event] {
        defer { events.removeAll() }
        return events
    }

    // MARK: Listener bodies

    fileprivate func global(name: UInt32, interface: String, version: UInt32) {
        switch interface {
        case "wl_compositor" where version >= 3:
            compositor = decibar_bind_compositor(registry, name, min(version, 4))
        case "zwlr_layer_shell_v1":
            layerShellVersion = min(version, 4)
            layerShell = decibar_bind_layer_shell(registry, name, layerShellVersion)
        case "wl_output":
            guard let proxy = decibar_bind_output(registry, name, min(version, 4)) else { return }
            let output = Output(proxy: proxy, globalName: name)
            outputs.append(output)
            wl_output_add_listener(output.proxy, listeners.output, Unmanaged.passUnretained(self).toOpaque())
        default:
            break
        }
    }

    fileprivate func globalRemoved(name: UInt32) {
        guard let index = outputs.firstIndex(where: { $0.globalName == name }) else { return }
        let output = outputs.remove(at: index)
        if chosenOutput === output { chosenOutput = nil }
        if enteredOutput === output { enteredOutput = nil }
        release(output)
    }

    private func release(_ output: Output) {
        if wl_output_get_version(output.proxy) >= 3 { wl_output_release(output.proxy) } else { wl_output_destroy(output.proxy) }
    }

    fileprivate func output(_ proxy: OpaquePointer?) -> Output? { outputs.first { $0.proxy == proxy } }

    fileprivate func configure(serial: UInt32, width: UInt32, height: UInt32) {
        configureSerial = serial
        configureCount += 1
        let size = (width: Int(width), height: Int(height))
        if size.width > 0 && size.height > 0 && (size.width != logicalSize.width || size.height != logicalSize.height) {
            logicalSize = size
            resizeBuffers()
        }
        // Acknowledged at once when drawing; before the first frame `awaitConfigure` does it.
        if eglSurface != nil { acknowledgeConfigure() }
    }

    fileprivate func closed() {
        isClosed = true
        events.append(.closed)
    }

    fileprivate func frameDone() {
        if let frameCallback { wl_callback_destroy(frameCallback) }
        frameCallback = nil
    }

    fileprivate func entered(_ output: Output) {
        enteredOutput = output
        updateScale()
    }

    fileprivate func outputChanged(_ output: Output) {
        if output === (chosenOutput ?? enteredOutput) { updateScale() }
    }

    private func updateScale() {
        let wanted = max(1, (chosenOutput ?? enteredOutput)?.scale ?? 1)
        guard wanted != scale, let surface else { return }
        scale = wanted
        wl_surface_set_buffer_scale(surface, Int32(scale))
        resizeBuffers()
    }

    private func resizeBuffers() {
        if let eglWindow {
            let (width, height) = drawableSize
            waylandEGLFunctions.wl_egl_window_resize!(eglWindow, Int32(max(1, width)), Int32(max(1, height)), 0, 0)
            events.append(.resized)
        }
    }
}

let waylandLibrary = LoadedLibrary<DecibarWayland> { decibar_wayland_load($0, $1) }
private var waylandFunctions: DecibarWayland { waylandLibrary.table! }
private let waylandEGLLibrary = LoadedLibrary<DecibarWaylandEGL> { decibar_wayland_egl_load($0, $1) }
private var waylandEGLFunctions: DecibarWaylandEGL { waylandEGLLibrary.table! }

/// The listener tables, at fixed addresses: libwayland keeps pointers to them.
private final class Listeners {
    let registry = UnsafeMutablePointer<wl_registry_listener>.allocate(capacity: 1)
    let output = UnsafeMutablePointer<wl_output_listener>.allocate(capacity: 1)
    let surface = UnsafeMutablePointer<wl_surface_listener>.allocate(capacity: 1)
    let layerSurface = UnsafeMutablePointer<zwlr_layer_surface_v1_listener>.allocate(capacity: 1)
    let frame = UnsafeMutablePointer<wl_callback_listener>.allocate(capacity: 1)

    init() {
        func owner(_ data: UnsafeMutableRawPointer?) -> WaylandLayerSurface {
            Unmanaged<WaylandLayerSurface>.fromOpaque(data!).takeUnretainedValue()
        }
        registry.initialize(to: wl_registry_listener(
            global: { data, _, name, interface, version in
                owner(data).global(name: name, interface: interface.map { String(cString: $0) } ?? "", version: version)
            },
            global_remove: { data, _, name in owner(data).globalRemoved(name: name) }))
        output.initialize(to: wl_output_listener(
            geometry: { _, _, _, _, _, _, _, _, _, _ in },
            mode: { data, proxy, flags, _, _, refresh in
                guard flags & WL_OUTPUT_MODE_CURRENT.rawValue != 0, let output = owner(data).output(proxy) else { return }
                output.refresh = refresh
            },
            done: { data, proxy in
                if let output = owner(data).output(proxy) { owner(data).outputChanged(output) }
            },
            scale: { data, proxy, factor in owner(data).output(proxy)?.scale = Int(factor) },
            name: { data, proxy, name in owner(data).output(proxy)?.name = name.map { String(cString: $0) } },
            description: { _, _, _ in }))
        surface.initialize(to: wl_surface_listener(
            enter: { data, _, proxy in
                if let output = owner(data).output(proxy) { owner(data).entered(output) }
            },
            leave: { _, _, _ in }))
        layerSurface.initialize(to: zwlr_layer_surface_v1_listener(
            configure: { data, _, serial, width, height in owner(data).configure(serial: serial, width: width, height: height) },
            closed: { data, _ in owner(data).closed() }))
        frame.initialize(to: wl_callback_listener(done: { data, _, _ in owner(data).frameDone() }))
    }

    deinit {
        registry.deallocate()
        output.deallocate()
        surface.deallocate()
        layerSurface.deallocate()
        frame.deallocate()
    }
}
