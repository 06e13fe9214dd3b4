/// How many colours a terminal shows: 24-bit, xterm's 256, the 16 of the ANSI palette, or none
/// (`NO_COLOR`, or a terminal without colour). The theme's colours are mapped to the nearest it has.
public enum TerminalColorDepth: String, Sendable, CaseIterable {
    case trueColor = "24-bit"
    case palette256 = "256"
    case palette16 = "16"
    case none

    /// What the environment says: `NO_COLOR` (any value) means none; `COLORTERM` truecolor or
    /// 24bit means 24-bit; a `TERM` naming 256 colours (or a terminal known for 24-bit) 256 or
    /// more; `dumb` none; anything else 16. A terminal's own answer can raise it (`answered`).
    public static func from(environment: [String: String]) -> TerminalColorDepth {
        if environment["NO_COLOR"].map({ !$0.isEmpty }) == true { return .none }
        let colorTerm = (environment["COLORTERM"] ?? "").lowercased()
        if colorTerm == "truecolor" || colorTerm == "24bit" { return .trueColor }
        let term = (environment["TERM"] ?? "").lowercased()
        if term.isEmpty || term == "dumb" { return .none }
        if term.hasPrefix("xterm-kitty") || term.hasPrefix("foot") || term.contains("direct") { return .trueColor }
        if term.contains("256") { return .palette256 }
        return .palette16
    }

    /// Appends the SGR parameters of a foreground (or background) colour, `;`-led: `;38;2;R;G;B`,
    /// `;38;5;N`, `;9N`, or `;39` for the terminal's own.
    public func appendParameters(_ color: UInt32, background: Bool, to out: inout [UInt8]) {
        if color == TerminalCell.defaultColor || self == .none {
            out.append(contentsOf: background ? Self.defaultBackground : Self.defaultForeground)
            return
        }
        let (red, green, blue) = (Int(color >> 16 & 0xFF), Int(color >> 8 & 0xFF), Int(color & 0xFF))
        switch self {
        case .trueColor:
            out.append(contentsOf: background ? Self.trueBackground : Self.trueForeground)
            Self.appendNumber(red, to: &out)
            out.append(UInt8(ascii: ";"))
            Self.appendNumber(green, to: &out)
            out.append(UInt8(ascii: ";"))
            Self.appendNumber(blue, to: &out)
        case .palette256:
            out.append(contentsOf: background ? Self.paletteBackground : Self.paletteForeground)
            Self.appendNumber(Self.palette256Index(red: red, green: green, blue: blue), to: &out)
        case .palette16:
            let index = Self.palette16Index(red: red, green: green, blue: blue)
            out.append(UInt8(ascii: ";"))
            Self.appendNumber((index < 8 ? 30 : 82) + index + (background ? 10 : 0), to: &out)
        case .none: break
        }
    }

    private static let defaultForeground = Array(";39".utf8)
    private static let defaultBackground = Array(";49".utf8)
    private static let trueForeground = Array(";38;2;".utf8)
    private static let trueBackground = Array(";48;2;".utf8)
    private static let paletteForeground = Array(";38;5;".utf8)
    private static let paletteBackground = Array(";48;5;".utf8)

    /// Decimal digits without making a string.
    static func appendNumber(_ value: Int, to out: inout [UInt8]) {
        if value >= 10 { appendNumber(value / 10, to: &out) }
        out.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// The nearest of xterm's 6×6×6 cube (16-231) and grey ramp (232-255).
    public static func palette256Index(red: Int, green: Int, blue: Int) -> Int {
        func level(_ value: Int) -> Int { value < 48 ? 0 : value < 115 ? 1 : (value - 35) / 40 }
        let steps = [0, 95, 135, 175, 215, 255]
        let (r, g, b) = (level(red), level(green), level(blue))
        let cube = 16 + 36 * r + 6 * g + b
        let cubeDistance = distance(red, green, blue, steps[r], steps[g], steps[b])
        let average = (red + green + blue) / 3
        let grey = average > 238 ? 23 : max(0, (average - 3) / 10)
        let greyValue = 8 + 10 * grey
        return distance(red, green, blue, greyValue, greyValue, greyValue) < cubeDistance ? 232 + grey : cube
    }

    /// The ANSI palette as xterm shows it by default: 0-7 normal, 8-15 bright.
    static let ansi: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    public static func palette16Index(red: Int, green: Int, blue: Int) -> Int {
        var best = 0
        var bestDistance = Int.max
        for (index, entry) in ansi.enumerated() {
            let d = distance(red, green, blue, entry.0, entry.1, entry.2)
            if d < bestDistance { (best, bestDistance) = (index, d) }
        }
        return best
    }

    private static func distance(_ r1: Int, _ g1: Int, _ b1: Int, _ r2: Int, _ g2: Int, _ b2: Int) -> Int {
        // Weighted as the eye weighs them (green most).
        let (dr, dg, db) = (r1 - r2, g1 - g2, b1 - b2)
        return 3 * dr * dr + 4 * dg * dg + 2 * db * db
    }
}
