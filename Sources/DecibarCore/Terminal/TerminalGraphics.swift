/// How `decibar term` draws its pictures (`display.graphics`): `auto` asks the terminal (kitty's
/// graphics, else sixel, else text); `kitty` and `sixel` draw real pixels with the GL renderer
/// offscreen; `text` draws in characters (eighth blocks, braille, half blocks) in any terminal.
public enum TerminalGraphics: String, CaseIterable, Sendable {
    case auto, kitty, sixel, text
}
