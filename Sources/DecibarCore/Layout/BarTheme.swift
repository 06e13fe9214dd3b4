/// An RGBA colour with components in 0...1.
public struct Colour: Sendable, Equatable {
    public var red: Float
    public var green: Float
    public var blue: Float
    public var alpha: Float

    public init(red: Float, green: Float, blue: Float, alpha: Float = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from `0xRRGGBB`.
    public init(hex: UInt32, alpha: Float = 1) {
        self.init(red: Float((hex >> 16) & 0xFF) / 255, green: Float((hex >> 8) & 0xFF) / 255,
                  blue: Float(hex & 0xFF) / 255, alpha: alpha)
    }
}

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
