/// The picture's rectangle and the bars' band in the area above the scrubber, for a layout and a
/// picture's aspect ratio. The picture is letterboxed: as large as fits, centered, its shape kept.
public struct PictureLayout: Sendable, Equatable {
    /// Where the picture is drawn (pixels, top-left origin); nil without a picture.
    public let picture: PixelRect?
    /// The bars' band: from `barsTop` down, `barsHeight` high.
    public let barsTop: Int
    public let barsHeight: Int

    /// How much of the area a panel above the bars takes.
    public static let panelShare = 0.62

    /// - Parameters:
    ///   - aspectRatio: the picture's width over its height; nil when there is no picture.
    ///   - areaHeight: the height above the scrubber (`PlayLayout.barsHeight`).
    public init(_ layout: VideoLayout, aspectRatio: Double?, width: Int, areaHeight: Int) {
        guard let aspectRatio, aspectRatio.isFinite, aspectRatio > 0, layout != .off, width > 0, areaHeight > 0 else {
            picture = nil
            barsTop = 0
            barsHeight = areaHeight
            return
        }
        switch layout {
        case .under:
            picture = Self.letterbox(aspectRatio, in: PixelRect(x: 0, y: 0, width: width, height: areaHeight))
            barsTop = 0
            barsHeight = areaHeight
        case .above, .off:
            let panel = Int((Double(areaHeight) * Self.panelShare).rounded())
            picture = Self.letterbox(aspectRatio, in: PixelRect(x: 0, y: 0, width: width, height: panel))
            barsTop = panel
            barsHeight = areaHeight - panel
        }
    }

    /// The largest rectangle of `aspectRatio` inside `area`, centered.
    public static func letterbox(_ aspectRatio: Double, in area: PixelRect) -> PixelRect {
        if Double(area.width) / Double(area.height) > aspectRatio {
            let width = max(1, Int((Double(area.height) * aspectRatio).rounded()))
            return PixelRect(x: area.x + (area.width - width) / 2, y: area.y, width: width, height: area.height)
        }
        let height = max(1, Int((Double(area.width) / aspectRatio).rounded()))
        return PixelRect(x: area.x, y: area.y + (area.height - height) / 2, width: area.width, height: height)
    }

    /// The size to decode a picture at for `rect`: the rectangle's, but never larger than the
    /// picture itself (the GPU scales up for free; decoding larger only costs).
    public static func decodeSize(for rect: PixelRect, pictureWidth: Int, pictureHeight: Int) -> (width: Int, height: Int) {
        guard rect.width > pictureWidth || rect.height > pictureHeight else { return (rect.width, rect.height) }
        let scale = min(Double(pictureWidth) / Double(rect.width), Double(pictureHeight) / Double(rect.height))
        return (max(1, Int((Double(rect.width) * scale).rounded())), max(1, Int((Double(rect.height) * scale).rounded())))
    }
}
