/// The colors bars are drawn with: a gradient from the center line to the tips.
public struct BarTheme: Sendable, Equatable {
    public var background: Color
    public var center: Color
    public var tip: Color

    public init(background: Color, center: Color, tip: Color) {
        self.background = background
        self.center = center
        self.tip = tip
    }

    public static let `default` = BarTheme(background: Color(hex: 0x0B0D14),
                                           center: Color(hex: 0x3A5BFF),
                                           tip: Color(hex: 0xFF4FB8))
}
