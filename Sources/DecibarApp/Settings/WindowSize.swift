/// `WxH` in pixels, e.g. `1280x720`.
public struct WindowSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WxH` (16 to 16384 each way); nil for anything else.
    public init?(text: String) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (16...16384).contains(width), (16...16384).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    public var text: String { "\(width)x\(height)" }
}
