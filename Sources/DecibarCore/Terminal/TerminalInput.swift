/// What a terminal sends: keys as the key table names them, mouse reports (SGR 1006), and its
/// answers to our questions (what it can draw, its pixel size, its modes).
public enum TerminalInput: Equatable, Sendable {
    case key(KeyChord)
    case mouse(TerminalMouse)
    /// DA1's answer (`CSI ? 62 ; 4 ; 22 c`): the attributes; 4 is sixel graphics.
    case primaryAttributes([Int])
    /// DECRPM (`CSI ? 2026 ; 2 $ y`): a private mode's state (1 set, 2 reset, 0 unknown, 4 permanently reset).
    case modeReport(mode: Int, state: Int)
    /// kitty's answer to a graphics command: whether it was OK.
    case graphicsReply(ok: Bool)
    /// `CSI 4 ; height ; width t`: the text area's size in pixels.
    case textAreaPixels(width: Int, height: Int)
}

/// A mouse report: cells counted from 0 at the top left.
public struct TerminalMouse: Equatable, Sendable {
    public enum Action: Equatable, Sendable {
        case press, release, motion, wheelUp, wheelDown
    }

    public var action: Action
    /// 0 left, 1 middle, 2 right (3: none, while moving).
    public var button: Int
    public var column: Int
    public var row: Int
    public var shift: Bool

    public init(action: Action, button: Int, column: Int, row: Int, shift: Bool = false) {
        self.action = action
        self.button = button
        self.column = column
        self.row = row
        self.shift = shift
    }
}
