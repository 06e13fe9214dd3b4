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

    /// The bars' colors moved `amount` (0...1) of the way to white, the tips twice as far as the
    /// centers: the beat accent's flash. The background stays.
    public func brightened(by amount: Float) -> BarTheme {
        func toward(_ color: Color, _ share: Float) -> Color {
            let share = Swift.min(1, Swift.max(0, share))
            return Color(red: color.red + (1 - color.red) * share, green: color.green + (1 - color.green) * share,
                         blue: color.blue + (1 - color.blue) * share, alpha: color.alpha)
        }
        return BarTheme(background: background, center: toward(center, amount / 2), tip: toward(tip, amount))
    }

    public static let `default` = BarTheme(background: Color(hex: 0x0B0D14),
                                           center: Color(hex: 0x3A5BFF),
                                           tip: Color(hex: 0xFF4FB8))
}
