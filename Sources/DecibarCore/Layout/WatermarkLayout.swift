/// Where `render --watermark` puts its picture: in a corner of the frame's safe area (a twentieth
/// of the shorter side in from each edge, as a composed frame's), its longer side an eighth of the
/// frame's shorter side, its shape kept. The bottom corners sit above the scrubber, not on it.
public struct WatermarkLayout: Sendable, Equatable {
    public enum Corner: String, CaseIterable, Sendable {
        case topLeft = "top-left", topRight = "top-right", bottomLeft = "bottom-left", bottomRight = "bottom-right"
    }

    /// The picture's place, y from the top.
    public let rect: PixelRect

    /// - Parameter above: the row (from the top) the picture stays above, half a margin clear: the
    ///   scrubber's top; nil for none.
    public init(pictureWidth: Int, pictureHeight: Int, canvasWidth: Int, canvasHeight: Int, corner: Corner, above: Int? = nil) {
        let short = min(canvasWidth, canvasHeight)
        let margin = max(4, short / 20)
        let longest = max(1, short / 8)
        let scale = Double(longest) / Double(max(1, pictureWidth, pictureHeight))
        let width = max(1, Int((Double(pictureWidth) * scale).rounded()))
        let height = max(1, Int((Double(pictureHeight) * scale).rounded()))
        let x = corner == .topLeft || corner == .bottomLeft ? margin : canvasWidth - margin - width
        let bottom = min(canvasHeight - margin, above.map { $0 - margin / 2 } ?? canvasHeight)
        let y = corner == .topLeft || corner == .topRight ? margin : max(margin, bottom - height)
        rect = PixelRect(x: x, y: y, width: width, height: height)
    }
}
