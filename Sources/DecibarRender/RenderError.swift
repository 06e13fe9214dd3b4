/// Something the window or GPU side could not do, in one line.
public struct RenderError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
