/// Input the frame loop acts on, translated from SDL's events.
public enum WindowEvent: Sendable, Equatable {
    /// The window was closed, `q` or Esc was pressed, or the process was interrupted.
    case quit
    /// `f` was pressed.
    case toggleFullscreen
    /// The drawable area changed size (pixels).
    case resized(width: Int, height: Int)
}
