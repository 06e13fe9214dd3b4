/// Input the frame loop acts on, translated from SDL's events.
public enum PlayerKey: Sendable, Equatable {
    case playPause, back, forward, start, end, next, previous, toggleDecibels
    /// x (and the media Stop key): stop; 9 and 0: volume down and up; l: the next loop mode.
    case stop, volumeDown, volumeUp, cycleLoop
    /// [ and ]: rate down and up; { and }: pitch down and up; \\: both back to normal.
    case rateDown, rateUp, pitchDown, pitchUp, resetRateAndPitch
    /// m: the next visualizer mode; s: the next user shader.
    case cycleMode, cycleShader
    /// + and -: the scrubber zooms in and out around the playhead.
    case zoomIn, zoomOut
    /// Page Down and Page Up: the next chapter, or back (as a CD player's previous).
    case nextChapter, previousChapter
    /// a and b: the A-B loop's start and end at the playhead; A (shift+a): no loop.
    case loopStart, loopEnd, clearLoop
    /// While Milkdrop shows (`Window.presetKeys`): n, p and r the next, previous and a random
    /// preset, l locks the one shown (the media keys keep moving through tracks).
    case nextPreset, previousPreset, randomPreset, lockPreset
}

public enum WindowEvent: Sendable, Equatable {
    /// The window was closed, `q` or Esc was pressed, or the process was interrupted.
    case quit
    /// `f` was pressed.
    case toggleFullscreen
    /// The drawable area changed size (pixels).
    case resized(width: Int, height: Int)
    /// A player key: space, arrows, Home/End, n, p, d.
    case key(PlayerKey)
    /// Left button pressed, moved, released; positions in drawable pixels from the top-left, and
    /// possibly outside the window while the mouse is captured.
    case mouseDown(x: Double, y: Double, shift: Bool = false)
    case mouseMoved(x: Double, y: Double)
    case mouseUp(x: Double, y: Double)
    /// The wheel turned with the pointer at x, y: `steps` up (away from the user) are positive.
    case wheel(x: Double, y: Double, steps: Double)
}
