import DecibarCore

/// Input the frame loop acts on, from any surface (a window translates SDL's events).
public enum SurfaceEvent: Sendable, Equatable {
    /// The surface was closed, or the process was interrupted.
    case quit
    /// The drawable area changed size (pixels).
    case resized(width: Int, height: Int)
    /// A key was pressed: what it does is the bindings' (`KeyBindings`).
    case key(KeyChord)
    /// Left button pressed, moved, released; positions in drawable pixels from the top-left, and
    /// possibly outside the window while the mouse is captured.
    case mouseDown(x: Double, y: Double, shift: Bool = false)
    case mouseMoved(x: Double, y: Double)
    case mouseUp(x: Double, y: Double)
    /// The wheel turned with the pointer at x, y: `steps` up (away from the user) are positive.
    case wheel(x: Double, y: Double, steps: Double)
    /// Text typed (after the keyboard's layout and any input method): what a list's search takes.
    case text(String)
    /// The pointer left the surface.
    case pointerLeft
    /// A file or an address was dropped on the surface; `playsNow` when Shift was held.
    case dropped(String, playsNow: Bool)
}
