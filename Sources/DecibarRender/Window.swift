import CGL
import CSDL2
import DecibarCore
import Glibc
import Synchronization

/// Set by `Window.whenDisplayIsLost`, run by Xlib's I/O error handler.
let displayLostAction = Mutex<(@Sendable () -> Void)?>(nil)

/// An SDL2 window with an OpenGL 3.3 core context. Create, use and destroy it on one thread:
/// the thread that owns the event loop (the process main thread in `decibar`).
public final class Window: Surface {
    /// SDL's window and context; nil for a layer of a Wayland desktop, which SDL cannot make.
    private var window: OpaquePointer?
    private var context: SDL_GLContext?
    /// The layer surface drawn into instead of an SDL window (Wayland with wlr-layer-shell).
    private var layerSurface: WaylandLayerSurface?
    /// Closed before its last user let it go (`close`): it shows and draws nothing more.
    public private(set) var isClosed = false
    /// Whether the driver agreed to wait for vertical blank on swap. Under Xvfb it does not,
    /// and some drivers agree but do not wait; the frame pacer checks either way.
    public private(set) var requestedVSync: Bool
    public private(set) var isFullscreen: Bool
    /// What could not be done of the desktop layer asked for (said in one line by the caller).
    public private(set) var layerWarning: String?
    /// The desktop layer it is part of (`.window`: an ordinary window).
    public private(set) var layer = DesktopLayer.window
    /// When the layer's place in the stacking was last checked (Window+Layer).
    var stackingCheckedAt: UInt64 = 0
    /// Shift is held, as of the last event handled: taken from each key event in order (the
    /// keyboard's state now would be that after every event pumped, a release included).
    private var isShiftHeld: Bool?

    /// Other windows cover all of it (X11 says so for a desktop layer, without a compositor), or
    /// the Wayland compositor has not asked for the next frame (it asks for none while the layer
    /// cannot be seen): a frame drawn now would not be seen.
    public var isFullyCovered: Bool { layerSurface?.isWaitingForFrame ?? isObscured }
    private var isObscured = false
    /// A layer surface's title (it has none on screen).
    private var layerTitle = "Decibar"
    private let layerAlphaBits: Int

    /// The SDL window, for this type's extensions (nil for a Wayland layer).
    var sdlWindow: OpaquePointer? { window }

    /// The display a lost connection was to, for saying so.
    public var displayName: String {
        func environment(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
        return layerSurface != nil || currentVideoDriver == "wayland" ? environment("WAYLAND_DISPLAY") : environment("DISPLAY")
    }

    /// SDL's X connection and the window's X id; nil when the window is not on X11.
    var x11Handles: (display: OpaquePointer, window: UInt)? {
        guard let window else { return nil }
        var info = SDL_SysWMinfo()
        info.version = SDL_version(major: UInt8(SDL_MAJOR_VERSION), minor: UInt8(SDL_MINOR_VERSION), patch: UInt8(SDL_PATCHLEVEL))
        guard sdlFunctions.SDL_GetWindowWMInfo!(window, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_X11,
              let display = info.info.x11.display else { return nil }
        return (display, info.info.x11.window)
    }

    /// Opens a window of `width`×`height` points. Throws a one-line error when there is no display.
    /// - Parameters:
    ///   - borderless: no title bar or frame.
    ///   - transparent: ask for a framebuffer with alpha, so a compositor can show what is behind
    ///     the window where it draws nothing (see `hasCompositor`).
    ///   - layer, monitor, placement: part of the desktop instead of a window (Window+Layer).
    public init(title: String, width: Int, height: Int, fullscreen: Bool = false, hidden: Bool = false,
                borderless: Bool = false, transparent: Bool = false, layer: DesktopLayer = .window, monitor: String? = nil,
                placement: LayerPlacement = LayerPlacement(anchor: .fill, thickness: 120, margin: 0)) throws(RenderError) {
        if let failure = sdlLibrary.failure ?? glLibrary.failure { throw RenderError("cannot open a window: \(failure)") }
        // Keep a desktop compositor running while we draw (SDL turns it off by default).
        sdlFunctions.SDL_SetHint!(SDL_HINT_VIDEO_X11_NET_WM_BYPASS_COMPOSITOR, "0")
        sdlFunctions.SDL_SetHint!(SDL_HINT_VIDEO_ALLOW_SCREENSAVER, "1")
        func environment(_ name: String) -> String { getenv(name).map { String(cString: $0) } ?? "" }
        if environment("DISPLAY").isEmpty && environment("WAYLAND_DISPLAY").isEmpty && environment("SDL_VIDEODRIVER").isEmpty {
            throw RenderError("cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set)")
        }
        var layer = layer
        var fallbackWarning: String?
        if layer != .window && !environment("WAYLAND_DISPLAY").isEmpty && environment("SDL_VIDEODRIVER") != "x11" {
            if let surface = try WaylandLayerSurface.open(layer: layer, monitor: monitor, placement: placement, transparent: transparent) {
                window = nil
                context = nil
                layerSurface = surface
                layerAlphaBits = transparent ? 8 : 0
                self.layer = layer
                requestedVSync = false
                isFullscreen = false
                Self.layerWakeDescriptor.store(surface.wakeDescriptor, ordering: .releasing)
                Self.currentContextOwner.withLock { $0 = ObjectIdentifier(self) }
                return
            }
            fallbackWarning = "--layer \(layer.rawValue): the compositor has no layer shell (wlr-layer-shell; GNOME has none), so an ordinary window opens"
            layer = .window
        }
        layerSurface = nil
        layerAlphaBits = 0
        // Titles are UTF-8, and SDL hands them to Xlib converted from the C character locale, the
        // one a Swift process keeps: "Decibar — alpha" came out garbled in WM_NAME and not at all in
        // _NET_WM_NAME. Only the character type changes; numbers and messages stay in "C".
        _ = setlocale(LC_CTYPE, "C.UTF-8")
        // Held until SDL has its own connection (see `connectToX`).
        var heldDisplay: OpaquePointer?
        defer { if let heldDisplay { x11Functions.XCloseDisplay!(heldDisplay) } }
        if !environment("DISPLAY").isEmpty && environment("WAYLAND_DISPLAY").isEmpty && environment("SDL_VIDEODRIVER").isEmpty {
            // X only: otherwise SDL goes on to try Wayland and prints that library's complaint,
            // then reports "no display" for a DISPLAY that is set but unreachable.
            heldDisplay = try Self.connectToX(environment("DISPLAY"))
            sdlFunctions.SDL_SetHint!(SDL_HINT_VIDEODRIVER, "x11")
        }
        if environment("DISPLAY").isEmpty && ["", "wayland"].contains(environment("SDL_VIDEODRIVER")) {
            // Wayland alone: SDL's window there.
            if try WaylandLayerSurface.compositorHasSeat() == false {
                throw RenderError("cannot open a window: the Wayland compositor offers no seat (no input), where SDL cannot open one")
            }
            // Without libdecor's plugins there are no decorations to draw either way; libdecor
            // would only print two lines saying so.
            if !Self.hasLibdecorPlugins { sdlFunctions.SDL_SetHint!(SDL_HINT_VIDEO_WAYLAND_ALLOW_LIBDECOR, "0") }
        }
        guard sdlFunctions.SDL_InitSubSystem!(SDL_INIT_VIDEO) == 0 else {
            throw RenderError("cannot open a window: \(Self.lastError) (is DISPLAY set?)")
        }
        // With no display at all SDL falls back to drawing nowhere; that is no window to a user.
        let driver = sdlFunctions.SDL_GetCurrentVideoDriver!().map { String(cString: $0) } ?? ""
        let requested = environment("SDL_VIDEODRIVER")
        if ["offscreen", "dummy", "evdev"].contains(driver) && requested != driver {
            sdlFunctions.SDL_QuitSubSystem!(SDL_INIT_VIDEO)
            throw RenderError("cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set)")
        }
        sdlFunctions.SDL_GL_SetAttribute!(SDL_GL_CONTEXT_MAJOR_VERSION, 3)
        sdlFunctions.SDL_GL_SetAttribute!(SDL_GL_CONTEXT_MINOR_VERSION, 3)
        sdlFunctions.SDL_GL_SetAttribute!(SDL_GL_CONTEXT_PROFILE_MASK, Int32(SDL_GL_CONTEXT_PROFILE_CORE.rawValue))
        sdlFunctions.SDL_GL_SetAttribute!(SDL_GL_DOUBLEBUFFER, 1)
        sdlFunctions.SDL_GL_SetAttribute!(SDL_GL_ALPHA_SIZE, transparent ? 8 : 0)

        let isLayer = layer != .window
        // A layer is no window the window manager frames: its frame would catch the clicks the
        // layer lets through, and place it as it likes. It keeps itself below or above (Window+Layer).
        sdlFunctions.SDL_SetHint!(SDL_HINT_X11_FORCE_OVERRIDE_REDIRECT, isLayer ? "1" : "0")
        var flags = SDL_WINDOW_OPENGL.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
        // A layer is placed and typed before it is shown (a window manager reads both on mapping).
        if !isLayer { flags |= SDL_WINDOW_RESIZABLE.rawValue }
        if fullscreen && !isLayer { flags |= SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue }
        if hidden || isLayer { flags |= SDL_WINDOW_HIDDEN.rawValue }
        if borderless || isLayer { flags |= SDL_WINDOW_BORDERLESS.rawValue }
        let centerd = Int32(SDL_WINDOWPOS_CENTERED_MASK)
        guard let window = sdlFunctions.SDL_CreateWindow!(title, centerd, centerd, Int32(width), Int32(height), flags) else {
            let reason = Self.lastError
            sdlFunctions.SDL_QuitSubSystem!(SDL_INIT_VIDEO)
            throw RenderError("cannot open a window: \(reason)")
        }
        guard let context = sdlFunctions.SDL_GL_CreateContext!(window) else {
            let reason = Self.lastError
            sdlFunctions.SDL_DestroyWindow!(window)
            sdlFunctions.SDL_QuitSubSystem!(SDL_INIT_VIDEO)
            throw RenderError("cannot create an OpenGL 3.3 context: \(reason)")
        }
        self.window = window
        self.context = context
        // An address dragged from a browser arrives as text, which SDL ignores unless asked.
        _ = sdlFunctions.SDL_EventState!(SDL_DROPTEXT.rawValue, SDL_ENABLE)
        if Self.wakeEventType.load(ordering: .acquiring) == 0 {
            let registered = sdlFunctions.SDL_RegisterEvents!(1)
            if registered != UInt32.max { Self.wakeEventType.store(registered, ordering: .releasing) }
        }
        self.isFullscreen = fullscreen && !isLayer
        requestedVSync = sdlFunctions.SDL_GL_SetSwapInterval!(1) == 0
        Self.currentContextOwner.withLock { $0 = ObjectIdentifier(self) }
        layerWarning = fallbackWarning
        if isLayer {
            self.layer = layer
            layerWarning = try placeOnDesktop(layer, monitor: monitor, placement: placement)
            if !environment("WAYLAND_DISPLAY").isEmpty {
                layerWarning = "--layer \(layer.rawValue): SDL_VIDEODRIVER=x11 puts the layer on XWayland, whose compositor may not honour it"
            }
            if !hidden { show() }
        }
    }

    /// Whether libdecor (SDL's window decorations on Wayland) has a plugin to draw them with.
    private static var hasLibdecorPlugins: Bool {
        #if arch(arm64)
        let triplet = "aarch64-linux-gnu"
        #else
        let triplet = "x86_64-linux-gnu"
        #endif
        let folder = getenv("LIBDECOR_PLUGIN_DIR").map { String(cString: $0) } ?? "/usr/lib/\(triplet)/libdecor/plugins-1"
        return access(folder, F_OK) == 0
    }

    /// Connects to the X display named by DISPLAY, so that an unreachable one is reported as such.
    ///
    /// The connection is kept open until SDL has made its own. An X server started without
    /// `-noreset` (Xvfb, `xinit`) resets itself whenever its last client leaves, and refuses
    /// connections for that moment: closing this one first made SDL's own attempt fail now and
    /// then ("x11 not available"). Another program's last connection can end just as this one
    /// starts too, so a server whose socket is there gets a second chance for up to a second.
    private static func connectToX(_ name: String) throws(RenderError) -> OpaquePointer {
        let started = sdlFunctions.SDL_GetTicks64!()
        while true {
            if let display = quietlyOpenDisplay() { return display }
            guard mayBeResetting(name), sdlFunctions.SDL_GetTicks64!() - started < 1000 else {
                throw RenderError("cannot open a window: cannot connect to the X display \(name) (no X server there, or access refused)")
            }
            sdlFunctions.SDL_Delay!(20)
        }
    }

    private static func quietlyOpenDisplay() -> OpaquePointer? {
        // Xlib writes its own complaints (such as missing authorization) to stderr; the reason goes
        // into our one line instead. Nothing else runs on other threads this early.
        let savedError = dup(STDERR_FILENO)
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        if savedError >= 0 && null >= 0 { dup2(null, STDERR_FILENO) }
        let display = x11Functions.XOpenDisplay!(nil)
        if savedError >= 0 && null >= 0 { dup2(savedError, STDERR_FILENO) }
        if savedError >= 0 { Glibc.close(savedError) }
        if null >= 0 { Glibc.close(null) }
        return display
    }

    /// Whether a failed connection to `name` may be a server resetting rather than none at all:
    /// a local display (`:N`, `unix:N`) whose socket exists, or any remote one.
    private static func mayBeResetting(_ name: String) -> Bool {
        guard let colon = name.lastIndex(of: ":") else { return false }
        let host = name[..<colon]
        guard host.isEmpty || host == "unix" else { return true }
        let number = name[name.index(after: colon)...].prefix { $0.isNumber }
        return !number.isEmpty && access("/tmp/.X11-unix/X\(number)", F_OK) == 0
    }

    /// What to do when the connection to the X server breaks (the server ended or crashed), just
    /// before the process ends with status 1: say so in one line and tidy up. Xlib cannot go on after
    /// such an error; without this it prints its own message.
    public static func whenDisplayIsLost(_ action: @escaping @Sendable () -> Void) {
        displayLostAction.withLock { $0 = action }
        // Without libX11 there is no X connection to lose.
        guard let x11 = x11Library.table else { return }
        _ = x11.XSetIOErrorHandler!({ _ in
            if let action = displayLostAction.withLock({ $0 }) { action() }
            exit(1)
        })
    }

    deinit { close() }

    /// Takes the window off the screen and lets its context go now, while something (a frame loop
    /// finishing its frame) still holds it: the daemon closes its window before it makes the next,
    /// for two windows at once on Wayland crashed Mesa's software rasterizer when the first went.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        // Whatever is current may be released with this window's context: the next window to draw
        // makes its own current again.
        Self.currentContextOwner.withLock { $0 = nil }
        if let window {
            sdlFunctions.SDL_GL_DeleteContext!(context)
            sdlFunctions.SDL_DestroyWindow!(window)
            sdlFunctions.SDL_QuitSubSystem!(SDL_INIT_VIDEO)
        } else {
            Self.layerWakeDescriptor.store(-1, ordering: .releasing)
        }
        window = nil
        context = nil
        layerSurface = nil
    }

    /// The video driver SDL uses ("x11", "wayland"), or "" without SDL.
    private var currentVideoDriver: String {
        guard window != nil else { return "" }
        return sdlFunctions.SDL_GetCurrentVideoDriver!().map { String(cString: $0) } ?? ""
    }

    /// Bits of alpha the framebuffer really has (0 when the driver gave none).
    public var alphaBits: Int {
        if layerSurface != nil { return layerAlphaBits }
        var bits: Int32 = 0
        sdlFunctions.SDL_GL_GetAttribute!(SDL_GL_ALPHA_SIZE, &bits)
        return Int(bits)
    }

    /// Whether a compositing manager runs on this window's X screen (it owns `_NET_WM_CM_Sn`);
    /// without one, transparent pixels show black. Nil when the window is not on X11.
    public var hasCompositor: Bool? {
        guard let display = x11Handles?.display else { return nil }
        let atom = x11Functions.XInternAtom!(display, "_NET_WM_CM_S\(x11Functions.XDefaultScreen!(display))", 0)
        return x11Functions.XGetSelectionOwner!(display, atom) != 0
    }

    /// The SDL event type `wakeEventLoop` posts (registered with the first window).
    private static let wakeEventType = Atomic<UInt32>(0)

    /// The layer surface's wake-up descriptor while one is open (-1: none).
    private static let layerWakeDescriptor = Atomic<Int32>(-1)

    /// Wakes a thread blocked in `waitForEvent`; callable from any thread.
    public static func wakeEventLoop() {
        let descriptor = layerWakeDescriptor.load(ordering: .acquiring)
        if descriptor >= 0 {
            var one: UInt64 = 1
            _ = write(descriptor, &one, 8)
        }
        let type = wakeEventType.load(ordering: .acquiring)
        guard type != 0 else { return }
        var event = SDL_Event()
        event.type = type
        sdlFunctions.SDL_PushEvent!(&event)
    }

    /// Blocks until input arrives, `wakeEventLoop` is called, or `timeout` seconds pass. The events
    /// stay queued for `pollEvents`.
    public func waitForEvent(timeout: Double) {
        if let layerSurface {
            if !layerSurface.dispatch(timeout: timeout) { Self.displayWasLost() }
            return
        }
        sdlFunctions.SDL_WaitEventTimeout!(nil, Int32(max(1, min(60_000, (timeout * 1000).rounded(.up)))))
    }

    static var lastError: String { sdlFunctions.SDL_GetError!().map { String(cString: $0) } ?? "" }

    /// The size of the drawing surface in pixels (larger than the window size on HiDPI screens).
    public var drawableSize: (width: Int, height: Int) {
        if let layerSurface { return layerSurface.drawableSize }
        var width: Int32 = 0
        var height: Int32 = 0
        sdlFunctions.SDL_GL_GetDrawableSize!(window, &width, &height)
        return (Int(width), Int(height))
    }

    /// Swaps at once instead of at vertical blank: for a frame rate other than the display's.
    public func stopWaitingForVSync() {
        guard layerSurface == nil else { return }
        _ = sdlFunctions.SDL_GL_SetSwapInterval!(0)
        requestedVSync = false
    }

    /// The refresh rate of the window's display in Hz, or nil when the driver does not say.
    public var refreshRate: Double? {
        if let layerSurface { return layerSurface.refreshRate }
        var mode = SDL_DisplayMode()
        let display = sdlFunctions.SDL_GetWindowDisplayIndex!(window)
        guard display >= 0, sdlFunctions.SDL_GetCurrentDisplayMode!(display, &mode) == 0, mode.refresh_rate > 0 else { return nil }
        return Double(mode.refresh_rate)
    }

    public var title: String {
        get { window.map { sdlFunctions.SDL_GetWindowTitle!($0).map { String(cString: $0) } ?? "" } ?? layerTitle }
        set {
            if let window { sdlFunctions.SDL_SetWindowTitle!(window, newValue) } else { layerTitle = newValue }
        }
    }

    /// Shows a hidden window (and raises it); `hide` takes it off the screen. Nothing else changes.
    public func show() {
        guard !isClosed else { return }
        if let layerSurface { return layerSurface.show() }
        sdlFunctions.SDL_ShowWindow!(window)
        if layer == .window {
            sdlFunctions.SDL_RaiseWindow!(window)
        } else {
            keepInLayer(force: true)
        }
    }

    public func hide() {
        guard !isClosed else { return }
        if let layerSurface { return layerSurface.hide() }
        sdlFunctions.SDL_HideWindow!(window)
    }

    /// A key as bindings name it (`KeyChord.names`); nil for keys no binding can name.
    static func chord(of keysym: SDL_Keysym) -> KeyChord? {
        let symbol = Int(keysym.sym)
        let name: String
        if let named = namedKeys[symbol] {
            name = named
        } else if (33..<127).contains(symbol), let scalar = UnicodeScalar(symbol) {
            // Printable keys are their own character (SDL's codes are ASCII for them).
            name = String(Character(scalar))
        } else {
            return nil
        }
        var modifiers: KeyChord.Modifiers = []
        let held = Int(keysym.mod)
        if held & Int(KMOD_CTRL.rawValue) != 0 { modifiers.insert(.ctrl) }
        if held & Int(KMOD_ALT.rawValue) != 0 { modifiers.insert(.alt) }
        if held & Int(KMOD_SHIFT.rawValue) != 0 { modifiers.insert(.shift) }
        if held & Int(KMOD_GUI.rawValue) != 0 { modifiers.insert(.meta) }
        guard KeyChord.names.contains(name) else {
            // A key whose own code is a shifted character (`*` on a layout or a keymap that has it
            // alone): the chord a US layout types it with (`shift+8`), as bindings name it.
            guard let typed = try? KeyChord(parsing: name) else { return nil }
            return KeyChord(typed.key, modifiers.union(typed.modifiers))
        }
        return KeyChord(name, modifiers)
    }

    /// SDL's keys that are not a printable character, by their binding names.
    private static let namedKeys: [Int: String] = {
        var keys: [Int: String] = [
            Int(SDLK_SPACE.rawValue): "space", Int(SDLK_RETURN.rawValue): "enter", Int(SDLK_ESCAPE.rawValue): "esc",
            Int(SDLK_TAB.rawValue): "tab", Int(SDLK_BACKSPACE.rawValue): "backspace", Int(SDLK_INSERT.rawValue): "insert",
            Int(SDLK_DELETE.rawValue): "delete", Int(SDLK_LEFT.rawValue): "left", Int(SDLK_RIGHT.rawValue): "right",
            Int(SDLK_UP.rawValue): "up", Int(SDLK_DOWN.rawValue): "down", Int(SDLK_HOME.rawValue): "home", Int(SDLK_END.rawValue): "end",
            Int(SDLK_PAGEUP.rawValue): "pgup", Int(SDLK_PAGEDOWN.rawValue): "pgdwn",
            Int(SDLK_KP_PLUS.rawValue): "kp+", Int(SDLK_KP_MINUS.rawValue): "kp-", Int(SDLK_KP_MULTIPLY.rawValue): "kp*",
            Int(SDLK_KP_DIVIDE.rawValue): "kp/", Int(SDLK_KP_PERIOD.rawValue): "kp.", Int(SDLK_KP_ENTER.rawValue): "kpenter",
            // Media keys reach the window when it has the focus (the desktop sends them over MPRIS otherwise).
            Int(SDLK_AUDIOPLAY.rawValue): "play", Int(SDLK_AUDIOSTOP.rawValue): "stop", Int(SDLK_AUDIONEXT.rawValue): "next",
            Int(SDLK_AUDIOPREV.rawValue): "prev", Int(SDLK_AUDIOMUTE.rawValue): "mute", Int(SDLK_VOLUMEUP.rawValue): "volume-up",
            Int(SDLK_VOLUMEDOWN.rawValue): "volume-down",
        ]
        let keypad = [SDLK_KP_0, SDLK_KP_1, SDLK_KP_2, SDLK_KP_3, SDLK_KP_4, SDLK_KP_5, SDLK_KP_6, SDLK_KP_7, SDLK_KP_8, SDLK_KP_9]
        for (digit, key) in keypad.enumerated() { keys[Int(key.rawValue)] = "kp\(digit)" }
        let functions = [SDLK_F1, SDLK_F2, SDLK_F3, SDLK_F4, SDLK_F5, SDLK_F6, SDLK_F7, SDLK_F8, SDLK_F9, SDLK_F10, SDLK_F11, SDLK_F12]
        for (index, key) in functions.enumerated() { keys[Int(key.rawValue)] = "f\(index + 1)" }
        return keys
    }()

    public func copyToClipboard(_ text: String) -> Bool {
        guard window != nil else { return false }
        return sdlFunctions.SDL_SetClipboardText!(text) == 0
    }

    public func toggleFullscreen() {
        guard window != nil else { return }
        isFullscreen.toggle()
        sdlFunctions.SDL_SetWindowFullscreen!(window, isFullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : 0)
    }

    /// Everything that happened since the last call; never blocks.
    public func pollEvents() -> [SurfaceEvent] {
        guard !isClosed else { return [] }
        if let layerSurface { return layerEvents(of: layerSurface) }
        if layer != .window { keepInLayer() }
        var events: [SurfaceEvent] = []
        var event = SDL_Event()
        while sdlFunctions.SDL_PollEvent!(&event) != 0 {
            switch SDL_EventType(event.type) {
            case SDL_QUIT:
                // SDL's Wayland side says quit when the compositor went away.
                if currentVideoDriver == "wayland" && isWaylandConnectionBroken { Self.displayWasLost() }
                events.append(.quit)
            case SDL_KEYUP:
                isShiftHeld = event.key.keysym.mod & UInt16(KMOD_SHIFT.rawValue) != 0
            case SDL_KEYDOWN:
                isShiftHeld = event.key.keysym.mod & UInt16(KMOD_SHIFT.rawValue) != 0
                // Only the key: what it does is the application's (its table of bindings).
                if let chord = Self.chord(of: event.key.keysym) { events.append(.key(chord)) }
            case SDL_MOUSEBUTTONDOWN where event.button.button == UInt8(SDL_BUTTON_LEFT):
                let (x, y) = toPixels(event.button.x, event.button.y)
                // Keep receiving motion and the release when the pointer leaves the window.
                sdlFunctions.SDL_CaptureMouse!(SDL_TRUE)
                let shift = isShiftHeld ?? (sdlFunctions.SDL_GetModState!().rawValue & KMOD_SHIFT.rawValue != 0)
                events.append(.mouseDown(x: x, y: y, shift: shift))
            case SDL_MOUSEMOTION:
                let (x, y) = toPixels(event.motion.x, event.motion.y)
                events.append(.mouseMoved(x: x, y: y))
            case SDL_MOUSEBUTTONUP where event.button.button == UInt8(SDL_BUTTON_LEFT):
                sdlFunctions.SDL_CaptureMouse!(SDL_FALSE)
                let (x, y) = toPixels(event.button.x, event.button.y)
                events.append(.mouseUp(x: x, y: y))
            case SDL_MOUSEWHEEL:
                let (x, y) = toPixels(event.wheel.mouseX, event.wheel.mouseY)
                let flipped = event.wheel.direction == UInt32(SDL_MOUSEWHEEL_FLIPPED.rawValue)
                events.append(.wheel(x: x, y: y, steps: Double(event.wheel.preciseY) * (flipped ? -1 : 1)))
            case SDL_SYSWMEVENT:
                // A desktop layer asked X for its visibility (Window+Layer).
                if let message = event.syswm.msg, message.pointee.subsystem == SDL_SYSWM_X11,
                   message.pointee.msg.x11.event.type == VisibilityNotify {
                    isObscured = message.pointee.msg.x11.event.xvisibility.state == VisibilityFullyObscured
                }
            case SDL_TEXTINPUT:
                let text = withUnsafeBytes(of: event.text.text) { bytes in
                    String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                if !text.isEmpty { events.append(.text(text)) }
            case SDL_DROPFILE, SDL_DROPTEXT:
                guard let file = event.drop.file else { break }
                let dropped = String(cString: file)
                sdlFunctions.SDL_free!(file)
                let shift = sdlFunctions.SDL_GetModState!().rawValue & KMOD_SHIFT.rawValue != 0
                // A URI list (file:///a.flac) from a file manager: each line is one.
                for line in dropped.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
                    events.append(.dropped(String(line), playsNow: shift))
                }
            case SDL_WINDOWEVENT:
                if event.window.event == UInt8(SDL_WINDOWEVENT_LEAVE.rawValue) { events.append(.pointerLeft) }
                if event.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue) {
                    rebindAfterResize()
                    let size = drawableSize
                    events.append(.resized(width: size.width, height: size.height))
                }
            default:
                break
            }
        }
        return events
    }

    /// Window coordinates (points) to drawable pixels, which differ on HiDPI screens.
    private func toPixels(_ x: Int32, _ y: Int32) -> (Double, Double) {
        var width: Int32 = 0
        var height: Int32 = 0
        if let window { sdlFunctions.SDL_GetWindowSize!(window, &width, &height) }
        let drawable = drawableSize
        let scaleX = width > 0 ? Double(drawable.width) / Double(width) : 1
        let scaleY = height > 0 ? Double(drawable.height) / Double(height) : 1
        return (Double(x) * scaleX, Double(y) * scaleY)
    }

    /// On Wayland, binds the context to the window again after its size changed: Mesa's software
    /// rasterizer kept the drawing buffer of the old size otherwise, and its next swap wrote past
    /// the new, smaller one (a crash, seen when the daemon made its window again).
    private func rebindAfterResize() {
        guard currentVideoDriver == "wayland" else { return }
        Self.currentContextOwner.withLock { $0 = nil }
        makeCurrent()
    }

    /// The window whose context was made current last (on the one thread windows live on).
    private static let currentContextOwner = Mutex<ObjectIdentifier?>(nil)

    /// Makes this window's context the current one, if another window's is: the daemon makes a
    /// window again while the old one still finishes its frame, and the old one, going, releases
    /// whatever is current. Call before drawing; nothing is done when nothing changed.
    public func makeCurrent() {
        guard !isClosed else { return }
        let me = ObjectIdentifier(self)
        guard Self.currentContextOwner.withLock({ $0 }) != me else { return }
        if let layerSurface {
            layerSurface.makeCurrent()
        } else {
            // SDL skips the call when its own record says this context is current already.
            _ = sdlFunctions.SDL_GL_MakeCurrent!(nil, nil)
            _ = sdlFunctions.SDL_GL_MakeCurrent!(window, context)
        }
        Self.currentContextOwner.withLock { $0 = me }
    }

    /// Shows the frame just drawn.
    public func present() {
        guard !isClosed else { return }
        if let layerSurface { return layerSurface.swap() }
        sdlFunctions.SDL_GL_SwapWindow!(window)
    }

    /// Waits until everything drawn so far is in the back buffer (a software renderer draws only
    /// now), so that a swap made later shows the frame at once.
    public func finishDrawing() {
        guard !isClosed else { return }
        glFunctions.glFinish!()
    }

    /// Reads the bottom-left `width`×`height` pixels of the frame just drawn (RGBA, bottom row
    /// first) into `pixels`, which must hold `width × height × 4` bytes.
    public func readPixels(into pixels: inout [UInt8], width: Int, height: Int) {
        precondition(pixels.count >= width * height * 4, "pixel buffer too small")
        glFunctions.glPixelStorei!(GLenum(GL_PACK_ALIGNMENT), 1)
        glFunctions.glReadBuffer!(GLenum(GL_BACK))
        pixels.withUnsafeMutableBytes { bytes in
            glFunctions.glReadPixels!(0, 0, GLsizei(width), GLsizei(height), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), bytes.baseAddress)
        }
    }
}
