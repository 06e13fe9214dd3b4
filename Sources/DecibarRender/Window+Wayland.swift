import CSDL2
import CWayland
import Glibc

/// A window on Wayland: a desktop layer drawn by `WaylandLayerSurface`, and the compositor going away.
extension Window {
    /// Ends the process as a lost X display does: the caller's line (`whenDisplayIsLost`), status 1.
    static func displayWasLost() -> Never {
        if let action = displayLostAction.withLock({ $0 }) { action() }
        exit(1)
    }

    /// What the compositor said to the layer since the last call; never blocks.
    func layerEvents(of surface: WaylandLayerSurface) -> [SurfaceEvent] {
        if !surface.dispatch(timeout: 0) { Self.displayWasLost() }
        return surface.takeEvents().map { event in
            switch event {
            case .resized:
                let size = surface.drawableSize
                return .resized(width: size.width, height: size.height)
            case .closed:
                // Its output went away; the compositor will not show it again.
                return .quit
            }
        }
    }

    /// Whether SDL's own Wayland connection broke (the compositor ended): SDL then only says quit.
    var isWaylandConnectionBroken: Bool {
        guard let window = sdlWindow else { return false }
        var info = SDL_SysWMinfo()
        info.version = SDL_version(major: UInt8(SDL_MAJOR_VERSION), minor: UInt8(SDL_MINOR_VERSION), patch: UInt8(SDL_PATCHLEVEL))
        guard sdlFunctions.SDL_GetWindowWMInfo!(window, &info) == SDL_TRUE, info.subsystem == SDL_SYSWM_WAYLAND,
              let display = info.info.wl.display, let wayland = waylandLibrary.table else { return false }
        return wayland.wl_display_get_error!(display) != 0
    }
}
