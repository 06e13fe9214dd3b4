/// Where things go in a composed video (`render` with a cover or a title): the cover, the title
/// and artist, the bars and the captions inside a safe area, and a slim scrubber at the bottom.
/// Landscape puts the title beside the cover over a band of bars; portrait stacks the cover, the
/// title, the bars and the captions, so a tall video is rearranged rather than squeezed. Radial
/// bars ring the cover instead, the title above them.
public struct ComposedLayout: Sendable, Equatable {
    public enum TextAlignment: Sendable, Equatable { case leading, center }

    /// The scrubber and its labels (the time and the track's place in it).
    public let play: PlayLayout
    /// Nothing is drawn outside it but the backdrop: 5 % of the shorter side in from every edge.
    public let safeArea: PixelRect
    /// The cover's square; nil without one (or with radial bars, which hold it in their ring).
    public let cover: PixelRect?
    /// The title and artist's box, and how they sit in it; empty without them.
    public let text: PixelRect
    public let textAlignment: TextAlignment
    /// Pixel sizes of the title and the artist.
    public let titleSize: Int
    public let artistSize: Int
    /// The bars' band: from `barsTop` down, `barsHeight` high, the full width.
    public let barsTop: Int
    public let barsHeight: Int
    /// Whether the slim scrubber (the progress bar and the times) is drawn; without it the bars'
    /// band reaches down to the safe area's edge.
    public let showsProgress: Bool

    /// The title takes at most this many lines; the artist one.
    public static let titleLines = 2
    /// The scrubber's share of the height, in percent (the player's is 22).
    public static let scrubberPercent = 10

    /// - Parameters:
    ///   - hasCover: a cover is shown.
    ///   - titleLines, artistLines: how many lines the title (0 to 2) and artist (0 or 1) take.
    ///   - radial: the bars ring the cover.
    ///   - progress: the slim scrubber is drawn (`render --progress bar`, the default).
    public init(width: Int, height: Int, hasCover: Bool, titleLines: Int, artistLines: Int, radial: Bool, progress: Bool = true) {
        let short = min(width, height)
        play = PlayLayout(width: width, height: height, scrubberPercent: Self.scrubberPercent)
        let margin = max(4, short / 20)
        safeArea = PixelRect(x: margin, y: margin, width: max(1, width - 2 * margin), height: max(1, height - 2 * margin))
        titleSize = max(16, short / 16)
        artistSize = max(12, short / 24)
        let lines = min(titleLines, Self.titleLines), artist = min(artistLines, 1)
        // Lines are set 1.25 their size apart.
        let textHeight = (lines * titleSize + artist * artistSize) * 5 / 4
        showsProgress = progress
        let area = progress ? play.barsHeight : height - margin
        let portrait = height > width
        if radial || !hasCover {
            // The title on top, centered; the bars (ringing the cover, if any) below it.
            cover = nil
            text = PixelRect(x: margin, y: margin, width: safeArea.width, height: textHeight)
            textAlignment = .center
            barsTop = textHeight > 0 ? margin + textHeight + margin / 2 : 0
        } else if portrait {
            // The cover as wide as fits (at most 45 % of the room above the scrubber), the title
            // under it, the bars below.
            let side = max(1, min(safeArea.width, area * 45 / 100))
            let coverRect = PixelRect(x: (width - side) / 2, y: 2 * margin, width: side, height: side)
            cover = coverRect
            text = PixelRect(x: margin, y: coverRect.y + side + margin / 2, width: safeArea.width, height: textHeight)
            textAlignment = .center
            barsTop = text.y + textHeight + margin / 2
        } else {
            // The cover on the left of the upper 55 %, the title beside it, the bars below both.
            let side = max(1, min((area - margin) * 55 / 100, safeArea.width / 3))
            let coverRect = PixelRect(x: margin, y: margin, width: side, height: side)
            cover = coverRect
            let left = margin + side + margin
            text = PixelRect(x: left, y: margin + max(0, (side - textHeight) / 2), width: max(1, width - margin - left), height: textHeight)
            textAlignment = .leading
            barsTop = margin + side + margin / 2
        }
        barsHeight = max(1, area - barsTop)
    }

    /// Where captions end: just above the bottom of the bars' band.
    public var captionsBottom: Int { barsTop + barsHeight - play.labelSize / 2 }
}
