/// An RGBA color with components in 0...1.
public struct Color: Sendable, Equatable {
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

    /// A color from `0xRRGGBB`.
    public init(hex: UInt32, alpha: Float = 1) {
        self.init(red: Float((hex >> 16) & 0xFF) / 255, green: Float((hex >> 8) & 0xFF) / 255,
                  blue: Float(hex & 0xFF) / 255, alpha: alpha)
    }

    /// The same color with another opacity.
    public func withAlpha(_ alpha: Float) -> Color {
        Color(red: red, green: green, blue: blue, alpha: alpha)
    }
}
