import DecibarAudio
import DecibarCore
import DecibarRender

/// What a composed video draws besides the player's bars and scrubber: the backdrop (the cover
/// blurred and dimmed, a picture, or a color), the cover, and the title and artist in white with a
/// dark stroke, so they read on any picture. Laid out by `ComposedLayout`.
final class ComposedView {
    /// `--backdrop`: behind everything.
    enum Backdrop: Equatable {
        /// The theme's background.
        case theme
        case blur
        case color(Color)
        case picture(String)
        /// A moving picture, looped (`LoopingVideo`); its first frame is the picture shown first.
        case video(String)
    }

    /// `--backdrop`'s value read: `blur`, `theme`, `#RRGGBB`, a picture or a video (whose first frame
    /// is decoded here, so a bad one ends the render before anything is written). Unset: blur behind
    /// a cover, else the theme.
    static func backdrop(_ option: String?, hasCover: Bool) throws(CommandFailure) -> (style: Backdrop, picture: Picture?) {
        guard let option else { return (hasCover ? .blur : .theme, nil) }
        switch option {
        case "blur": return (hasCover ? .blur : .theme, nil)
        case "theme": return (.theme, nil)
        default:
            if option.hasPrefix("#") {
                let digits = option.dropFirst()
                guard digits.count == 6, let value = UInt32(digits, radix: 16) else {
                    throw CommandFailure(message: "--backdrop \(option.escapingControlCharacters): a color is #RRGGBB", status: 2)
                }
                return (.color(Color(hex: value)), nil)
            }
            do {
                let decoder = try CoverArt.openPicture(option)
                let first = try CoverArt.firstPicture(decoder, largestSide: CoverArt.largestSide)
                return (LoopingVideo.moves(decoder) ? .video(option) : .picture(option), first)
            } catch {
                let reason = error.reason == VideoFileDecoder.noPicture ? "no picture or video in it" : error.reason
                throw CommandFailure(message: "--backdrop \(option.escapingControlCharacters): \(reason) (use blur, theme, #RRGGBB, a picture or a video)")
            }
        }
    }

    let layout: ComposedLayout
    private let titleText: TextRenderer
    private let artistText: TextRenderer
    private let rects: RectRenderer
    private let coverPicture: PictureRenderer?
    private let backdropRenderer: PictureRenderer?
    private let backdropColor: Color?
    private let title: CaptionLines?
    private let artist: CaptionLines?
    /// Over a picture behind everything: dark enough for white text and bright bars to stand out.
    static let dim = Color(red: 0, green: 0, blue: 0, alpha: 0.55)
    static let titleColor = Color(red: 1, green: 1, blue: 1)
    static let artistColor = Color(red: 0.85, green: 0.85, blue: 0.88)
    static let stroke = Color(red: 0, green: 0, blue: 0, alpha: 0.7)

    /// - Parameters:
    ///   - backdropPicture: the picture `--backdrop PATH` names, already decoded.
    init(shaders: ShaderLibrary, width: Int, height: Int, cover: CoverArt?, title: String?, artist: String?, radial: Bool,
         progress: Bool, backdrop: Backdrop, backdropPicture: Picture?) throws(RenderError) {
        let provisional = ComposedLayout(width: width, height: height, hasCover: cover != nil, titleLines: title == nil ? 0 : 1,
                                         artistLines: artist == nil ? 0 : 1, radial: radial, progress: progress)
        titleText = try TextRenderer(shaders: shaders, pixelSize: provisional.titleSize, bold: true)
        artistText = try TextRenderer(shaders: shaders, pixelSize: provisional.artistSize)
        rects = try RectRenderer(shaders: shaders)
        let textWidth = provisional.text.width
        let titleLines = title.map { [titleText] in
            CaptionLines($0, width: textWidth, maximumLines: ComposedLayout.titleLines) { titleText.size(of: $0).width }
        }
        let artistLines = artist.map { [artistText] in CaptionLines($0, width: textWidth, maximumLines: 1) { artistText.size(of: $0).width } }
        self.title = titleLines
        self.artist = artistLines
        layout = ComposedLayout(width: width, height: height, hasCover: cover != nil, titleLines: titleLines?.lines.count ?? 0,
                                artistLines: artistLines?.lines.count ?? 0, radial: radial, progress: progress)
        if let cover {
            let renderer = try PictureRenderer(shaders: shaders)
            renderer.upload(cover.picture)
            coverPicture = renderer
        } else {
            coverPicture = nil
        }
        var behind: Picture?
        switch backdrop {
        case .theme: backdropColor = nil
        case .color(let color): backdropColor = color
        case .blur:
            backdropColor = nil
            behind = cover?.backdrop
        case .picture, .video:
            backdropColor = nil
            behind = backdropPicture
        }
        if let behind {
            let renderer = try PictureRenderer(shaders: shaders)
            renderer.upload(behind)
            backdropRenderer = renderer
        } else {
            backdropRenderer = nil
        }
    }

    /// Shows `picture` behind everything from now on: a moving backdrop's next frame.
    func showBackdrop(_ picture: Picture) {
        backdropRenderer?.upload(picture)
    }

    /// The backdrop, the cover (unless the bars ring it) and the text: what goes under the bars.
    func draw(canvasWidth: Int, canvasHeight: Int) {
        defer {
            titleText.endFrame()
            artistText.endFrame()
        }
        let whole = PixelRect(x: 0, y: 0, width: canvasWidth, height: canvasHeight)
        if let backdropColor {
            rects.draw([(whole, backdropColor)], canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        } else if let backdropRenderer {
            backdropRenderer.drawFilling(whole, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
            rects.draw([(whole, Self.dim)], canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        }
        if let cover = layout.cover, let coverPicture {
            // A soft shadow a little larger than the cover lifts it off the backdrop.
            let spread = max(2, cover.width / 60)
            rects.draw([(PixelRect(x: cover.x - spread, y: cover.y - spread / 2, width: cover.width + 2 * spread,
                                   height: cover.height + 2 * spread), Color(red: 0, green: 0, blue: 0, alpha: 0.35))],
                       canvasWidth: canvasWidth, canvasHeight: canvasHeight)
            coverPicture.drawFilling(cover, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        }
        var top = layout.text.y
        for (lines, text, color, size) in [(title, titleText, Self.titleColor, layout.titleSize),
                                           (artist, artistText, Self.artistColor, layout.artistSize)] {
            guard let lines else { continue }
            for line in lines.lines {
                let width = text.size(of: line.text).width
                let x = layout.textAlignment == .center ? layout.text.x + (layout.text.width - width) / 2 : layout.text.x
                drawStroked(line.text, with: text, x: x, y: top, color: color, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
                top += size * 5 / 4
            }
        }
    }

    /// The cover filling the round middle of radial bars (`rect`, the circle's square).
    func drawRound(in rect: PixelRect, canvasWidth: Int, canvasHeight: Int) {
        coverPicture?.drawRound(in: rect, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }

    /// `text` in `color` over a dark outline a sixteenth of its size wide.
    private func drawStroked(_ line: String, with text: TextRenderer, x: Int, y: Int, color: Color, canvasWidth: Int, canvasHeight: Int) {
        let width = max(1, text.pixelSize / 16)
        for (dx, dy) in [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)] {
            text.draw(line, x: x + dx * width, y: y + dy * width, color: Self.stroke, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
        }
        text.draw(line, x: x, y: y, color: color, canvasWidth: canvasWidth, canvasHeight: canvasHeight)
    }
}
