/// The colours bars are drawn with: a gradient from the centre line to the tips.
public struct BarTheme: Sendable, Equatable {
    public var background: Colour
    public var centre: Colour
    public var tip: Colour

    public init(background: Colour, centre: Colour, tip: Colour) {
        self.background = background
        self.centre = centre
        self.tip = tip
    }

    public static let `default` = BarTheme(background: Colour(hex: 0x0B0D14),
                                           centre: Colour(hex: 0x3A5BFF),
                                           tip: Colour(hex: 0xFF4FB8))
}
