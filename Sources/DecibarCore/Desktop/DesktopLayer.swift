/// Where the window lives on the desktop (`display.layer`): an ordinary window, or part of the
/// desktop itself, behind every window (a live wallpaper) or above them (while streaming or
/// recording). The names are wlr-layer-shell's layers.
public enum DesktopLayer: String, CaseIterable, Sendable {
    /// An ordinary window: a title, a place in the stacking, the keys.
    case window
    /// The wallpaper's place: below every window, on every workspace.
    case background
    /// Below the windows, above the wallpaper.
    case bottom
    /// Above the windows (below fullscreen ones on Wayland).
    case top
    /// Above everything.
    case overlay

    /// Input passes through to what is below (keys go through `decibar ctl`).
    public var isClickThrough: Bool { self != .window }

    /// Drawn over other windows: see-through where the theme's background would be.
    public var isAboveWindows: Bool { self == .top || self == .overlay }
}
