/// An axis-aligned rectangle in whole pixels, origin at the top-left of the canvas.
public struct PixelRect: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var description: String { "(\(x),\(y) \(width)x\(height))" }
}
