import DecibarCore
import Foundation

/// What the terminal can do, asked of it as it starts (not guessed from `TERM`): synchronized
/// output (DECRQM 2026), kitty's graphics (a query image), sixel (DA1 lists 4), the pixel size of
/// its text area (TIOCGWINSZ, else `CSI 14 t`), and its colours (`COLORTERM`, `TERM`, `NO_COLOR`).
struct TerminalAbilities: Equatable {
    var synchronizedOutput = false
    var kittyGraphics = false
    var sixel = false
    var pixelWidth = 0
    var pixelHeight = 0
    var colorDepth = TerminalColorDepth.palette16

    /// The queries, DA1 last: every terminal answers it, so its answer means the others came if they were going to.
    static let queries = Array(("\u{1B}[?2026$p" + "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" + "\u{1B}[14t" + "\u{1B}[c").utf8)

    /// Asks `device` and reads its answers for up to `timeout` seconds; typing that came meanwhile
    /// is handed back to be acted on.
    static func probe(_ device: TerminalDevice, parser: inout TerminalInputParser, environment: [String: String],
                      timeout: Double = 1.0) -> (abilities: TerminalAbilities, typed: [TerminalInput]) {
        var abilities = TerminalAbilities()
        abilities.colorDepth = TerminalColorDepth.from(environment: environment)
        let size = device.size
        (abilities.pixelWidth, abilities.pixelHeight) = (size.pixelWidth, size.pixelHeight)
        device.write(queries)
        var typed: [TerminalInput] = []
        let deadline = MonotonicClock.now() + timeout
        var answered = false
        while !answered, MonotonicClock.now() < deadline {
            guard let bytes = device.read(timeout: deadline - MonotonicClock.now()) else { break }
            for input in parser.feed(bytes) {
                switch input {
                case .primaryAttributes(let attributes):
                    abilities.sixel = attributes.dropFirst().contains(4)
                    answered = true
                case .modeReport(2026, let state): abilities.synchronizedOutput = state == 1 || state == 2
                case .graphicsReply(let ok): abilities.kittyGraphics = ok
                case .textAreaPixels(let width, let height) where abilities.pixelWidth == 0:
                    (abilities.pixelWidth, abilities.pixelHeight) = (width, height)
                default: typed.append(input)
                }
            }
        }
        return (abilities, typed)
    }

    /// How pictures are drawn, from `--graphics` and what the terminal said.
    func graphics(_ choice: TerminalGraphics) -> TerminalGraphics {
        switch choice {
        case .auto: kittyGraphics ? .kitty : sixel ? .sixel : .text
        default: choice
        }
    }
}
