import CSDL2
import DecibarCore
import Glibc

/// A window made part of the desktop on X11 (`display.layer`): an override-redirect window (no
/// frame of the window manager's, which would catch the clicks it lets through), typed and stated
/// for the desktop's tools (EWMH), with an empty input shape (XFixes), on its monitor or a strip of
/// it (XRandR's monitors, by output name). It keeps itself at the bottom of the stacking, or the
/// top, checking twice a second (a window raised later would otherwise cover an overlay).
extension Window {
    /// A monitor of the X screen.
    public struct Monitor: Sendable, Equatable {
        public var name: String
        public var isPrimary: Bool
        public var frame: PixelRect
    }

    /// The X screen's monitors (XRandR 1.5), the primary first; one covering the screen when
    /// XRandR says nothing.
    static func monitors(on display: OpaquePointer) -> [Monitor] {
        let root = x11Functions.XDefaultRootWindow!(display)
        var found: [Monitor] = []
        if let randr = xrandrLibrary.table {
            var count: Int32 = 0
            if let list = randr.XRRGetMonitors!(display, root, 1, &count) {
                for index in 0 ..< Int(count) {
                    let info = list[index]
                    var name = ""
                    if let atomName = x11Functions.XGetAtomName!(display, info.name) {
                        name = String(cString: atomName)
                        _ = x11Functions.XFree!(atomName)
                    }
                    found.append(Monitor(name: name, isPrimary: info.primary != 0,
                                         frame: PixelRect(x: Int(info.x), y: Int(info.y), width: Int(info.width), height: Int(info.height))))
                }
                randr.XRRFreeMonitors!(list)
            }
        }
        if found.isEmpty {
            let screen = x11Functions.XDefaultScreen!(display)
            found = [Monitor(name: "", isPrimary: true, frame: PixelRect(x: 0, y: 0, width: Int(x11Functions.XDisplayWidth!(display, screen)),
                                                                          height: Int(x11Functions.XDisplayHeight!(display, screen))))]
        }
        return found.filter(\.isPrimary) + found.filter { !$0.isPrimary }
    }

    /// How often a layer checks its place in the stacking, in milliseconds.
    static let stackingCheckInterval: UInt64 = 500

    /// Lowers a wallpaper layer under every window, or raises a layer above them, when it is not
    /// there already (`force`: at once, as it is shown).
    func keepInLayer(force: Bool = false) {
        let now = sdlFunctions.SDL_GetTicks64!()
        guard force || now - stackingCheckedAt >= Self.stackingCheckInterval else { return }
        stackingCheckedAt = now
        guard let (display, xWindow) = x11Handles else { return }
        // The root's children, bottom first.
        var root: UInt = 0, parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        guard x11Functions.XQueryTree!(display, x11Functions.XDefaultRootWindow!(display), &root, &parent, &children, &count) != 0 else { return }
        let stack = children.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))) } ?? []
        if let children { _ = x11Functions.XFree!(children) }
        if layer.isAboveWindows {
            if stack.last != xWindow { _ = x11Functions.XRaiseWindow!(display, xWindow) }
        } else if stack.first != xWindow {
            _ = x11Functions.XLowerWindow!(display, xWindow)
        }
        _ = x11Functions.XFlush!(display)
    }

    /// Puts the window (made hidden, borderless) on `layer` of the desktop, on the monitor named
    /// (the primary one when nil) where `placement` says. Throws a one-line reason for a monitor
    /// that is not there; returns a warning when the layer is only partly possible here.
    func placeOnDesktop(_ layer: DesktopLayer, monitor name: String?, placement: LayerPlacement) throws(RenderError) -> String? {
        guard let (display, xWindow) = x11Handles else {
            return "--layer \(layer.rawValue): desktop layers are made on X11 only for now; an ordinary window opens"
        }
        let monitors = Self.monitors(on: display)
        let chosen: Monitor
        if let name, !name.isEmpty {
            guard let named = monitors.first(where: { $0.name == name }) else {
                throw RenderError("no monitor '\(name.escapingControlCharacters)' (there \(monitors.count == 1 ? "is" : "are"): "
                                  + monitors.map(\.name).joined(separator: ", ") + ")")
            }
            chosen = named
        } else {
            chosen = monitors[0]
        }
        let frame = placement.frame(on: chosen.frame)
        sdlFunctions.SDL_SetWindowPosition!(sdlWindow, Int32(frame.x), Int32(frame.y))
        sdlFunctions.SDL_SetWindowSize!(sdlWindow, Int32(frame.width), Int32(frame.height))

        func atom(_ name: String) -> Atom { x11Functions.XInternAtom!(display, name, 0) }
        func setAtoms(_ property: String, _ values: [String]) {
            var atoms = values.map(atom)
            _ = atoms.withUnsafeMutableBytes { bytes in
                x11Functions.XChangeProperty!(display, xWindow, atom(property), Atom(XA_ATOM), 32, PropModeReplace,
                                              bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(values.count))
            }
        }
        // The type and state a window manager reads when the window is mapped.
        let type: String = switch layer {
        case .background: "_NET_WM_WINDOW_TYPE_DESKTOP"
        case .overlay: "_NET_WM_WINDOW_TYPE_DOCK"
        case .window, .bottom, .top: "_NET_WM_WINDOW_TYPE_NORMAL"
        }
        setAtoms("_NET_WM_WINDOW_TYPE", [type])
        var state = ["_NET_WM_STATE_STICKY", "_NET_WM_STATE_SKIP_TASKBAR", "_NET_WM_STATE_SKIP_PAGER"]
        state.append(layer.isAboveWindows ? "_NET_WM_STATE_ABOVE" : "_NET_WM_STATE_BELOW")
        setAtoms("_NET_WM_STATE", state)
        // It never takes the keyboard: the windows around it keep the focus.
        if let hints = x11Functions.XAllocWMHints!() {
            hints.pointee.flags = InputHint
            hints.pointee.input = 0
            _ = x11Functions.XSetWMHints!(display, xWindow, hints)
            _ = x11Functions.XFree!(hints)
        }
        // Told when it is fully covered, so that it stops drawing what no one sees (SDL passes
        // the events on as system events; its own mask is kept).
        var attributes = XWindowAttributes()
        if x11Functions.XGetWindowAttributes!(display, xWindow, &attributes) != 0 {
            _ = x11Functions.XSelectInput!(display, xWindow, attributes.your_event_mask | VisibilityChangeMask)
            _ = sdlFunctions.SDL_EventState!(SDL_SYSWMEVENT.rawValue, SDL_ENABLE)
        }
        var warning: String?
        // Click-through: an empty input shape.
        if let fixes = xfixesLibrary.table {
            let region = fixes.XFixesCreateRegion!(display, nil, 0)
            fixes.XFixesSetWindowShapeRegion!(display, xWindow, ShapeInput, 0, 0, region)
            fixes.XFixesDestroyRegion!(display, region)
        } else {
            warning = "--layer \(layer.rawValue): clicks cannot pass through (\(xfixesLibrary.failure ?? "no libXfixes"))"
        }
        _ = x11Functions.XFlush!(display)
        return warning
    }
}
