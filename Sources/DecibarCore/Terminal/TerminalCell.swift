/// One character cell of a terminal: a character and its two colours (`0xRRGGBB`, or
/// `TerminalCell.defaultColor` for the terminal's own).
public struct TerminalCell: Equatable, Sendable {
    public var scalar: Unicode.Scalar
    public var foreground: UInt32
    public var background: UInt32
    /// Shown with the colours swapped (SGR 7): how a cell filled from its top is drawn, a lower
    /// block in the background's colour over the bar's, without knowing the terminal's background.
    public var inverse: Bool

    /// The terminal's own colour (its theme), not one of ours.
    public static let defaultColor: UInt32 = 0xFF00_0000
    public static let blank = TerminalCell(" ", foreground: defaultColor, background: defaultColor)

    public init(_ scalar: Unicode.Scalar, foreground: UInt32, background: UInt32 = defaultColor, inverse: Bool = false) {
        self.scalar = scalar
        self.foreground = foreground
        self.background = background
        self.inverse = inverse
    }

    /// `0xRRGGBB` of a colour (its alpha ignored).
    public static func rgb(_ color: Color) -> UInt32 {
        func byte(_ value: Float) -> UInt32 { UInt32((min(1, max(0, value)) * 255).rounded()) }
        return byte(color.red) << 16 | byte(color.green) << 8 | byte(color.blue)
    }

    /// The colour `share` of the way from `from` to `to` (0xRRGGBB both).
    public static func mix(_ from: UInt32, _ to: UInt32, _ share: Float) -> UInt32 {
        let share = min(1, max(0, share))
        var mixed: UInt32 = 0
        for shift in [16, 8, 0] as [UInt32] {
            let a = Float((from >> shift) & 0xFF)
            let b = Float((to >> shift) & 0xFF)
            mixed |= UInt32((a + (b - a) * share).rounded()) << shift
        }
        return mixed
    }
}
