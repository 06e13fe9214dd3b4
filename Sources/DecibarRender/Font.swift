import CSDL2
import CSDL2TTF
import DecibarCore

/// A TrueType font (DejaVu Sans by default) that renders text into RGBA pixels. Letters it lacks
/// are drawn with a face fontconfig finds for them (`SystemFonts`); right-to-left text (Hebrew,
/// Arabic) is laid out in runs (`TextRuns`), each shaped by HarfBuzz through SDL_ttf.
final class Font {
    private let handle: OpaquePointer
    let pixelSize: Int
    private let bold: Bool
    /// The face for each set of letters the font lacks (nil: no font has them all), and the faces
    /// opened for them, by file.
    private var fallbacks: [[Unicode.Scalar]: OpaquePointer?] = [:]
    private var opened: [SystemFonts.Face: OpaquePointer] = [:]

    /// Font files looked for, in order, after `$DECIBAR_FONT`.
    static let searchPaths = [
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/TTF/DejaVuSans.ttf",
        "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    ]

    /// - Parameter bold: DejaVu Sans Bold (titles), where it is installed; `$DECIBAR_FONT` still comes first.
    init(pixelSize: Int, bold: Bool = false) throws(RenderError) {
        if let failure = ttfLibrary.failure { throw RenderError("cannot start the font renderer: \(failure)") }
        if ttfFunctions.TTF_WasInit!() == 0 && ttfFunctions.TTF_Init!() != 0 {
            throw RenderError("cannot start the font renderer: \(Window.lastError)")
        }
        var paths = Self.searchPaths
        if bold { paths = paths.map { $0.replacing("DejaVuSans.ttf", with: "DejaVuSans-Bold.ttf") } + paths }
        if let custom = sdlFunctions.SDL_getenv!("DECIBAR_FONT") { paths.insert(String(cString: custom), at: 0) }
        guard let handle = paths.lazy.compactMap({ ttfFunctions.TTF_OpenFont!($0, Int32(pixelSize)) }).first else {
            throw RenderError("no font found (install fonts-dejavu-core or set DECIBAR_FONT)")
        }
        self.handle = handle
        self.pixelSize = pixelSize
        self.bold = bold
    }

    deinit {
        ttfFunctions.TTF_CloseFont!(handle)
        for face in opened.values { ttfFunctions.TTF_CloseFont!(face) }
    }

    /// `text` as white pixels with coverage in alpha, rows top to bottom, RGBA byte order.
    func render(_ text: String) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard !text.isEmpty else { return nil }
        let layout = TextRuns(text)
        if layout.runs.count == 1, !layout.rightToLeft, face(for: text) == handle { return Self.render(text, with: handle) }
        // Run by run, each with its face and direction, set side by side on one baseline.
        var pieces: [(pixels: [UInt8], width: Int, height: Int, ascent: Int)] = []
        for run in layout.runs {
            let face = face(for: run.text)
            if run.rightToLeft {
                _ = ttfFunctions.TTF_SetFontDirection!(face, TTF_DIRECTION_RTL)
                _ = ttfFunctions.TTF_SetFontScriptName!(face, run.script ?? "Zzzz")
            }
            let rendered = Self.render(run.text, with: face)
            if run.rightToLeft {
                _ = ttfFunctions.TTF_SetFontDirection!(face, TTF_DIRECTION_LTR)
                _ = ttfFunctions.TTF_SetFontScriptName!(face, "Zzzz")
            }
            if let rendered { pieces.append((rendered.pixels, rendered.width, rendered.height, Int(ttfFunctions.TTF_FontAscent!(face)))) }
        }
        guard !pieces.isEmpty else { return nil }
        let ascent = pieces.map(\.ascent).max()!
        let width = pieces.map(\.width).reduce(0, +)
        let height = ascent + pieces.map { $0.height - $0.ascent }.max()!
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var left = 0
        for piece in pieces {
            let top = ascent - piece.ascent
            for row in 0 ..< piece.height where top + row >= 0 && top + row < height {
                let target = ((top + row) * width + left) * 4
                pixels.replaceSubrange(target ..< target + piece.width * 4, with: piece.pixels[row * piece.width * 4 ..< (row + 1) * piece.width * 4])
            }
            left += piece.width
        }
        return (pixels, width, height)
    }

    /// The face for `text`: this font when it has every letter, else one fontconfig finds (once
    /// for each set of letters), else this font after all (the missing letters drawn as boxes).
    private func face(for text: String) -> OpaquePointer {
        let missing = text.unicodeScalars.filter { !$0.properties.isWhitespace && ttfFunctions.TTF_GlyphIsProvided32!(handle, $0.value) == 0 }
        guard !missing.isEmpty else { return handle }
        let key = Array(Set(missing)).sorted { $0.value < $1.value }
        if let known = fallbacks[key] { return known ?? handle }
        var face: OpaquePointer?
        if let found = SystemFonts.face(covering: key, bold: bold) {
            face = opened[found] ?? ttfFunctions.TTF_OpenFontIndex!(found.path, Int32(pixelSize), found.index)
            opened[found] = face
        }
        fallbacks[key] = face
        return face ?? handle
    }

    private static func render(_ text: String, with face: OpaquePointer) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard let surface = ttfFunctions.TTF_RenderUTF8_Blended!(face, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else { return nil }
        defer { sdlFunctions.SDL_FreeSurface!(surface) }
        guard let rgba = sdlFunctions.SDL_ConvertSurfaceFormat!(surface, UInt32(SDL_PIXELFORMAT_ABGR8888.rawValue), 0) else { return nil }
        defer { sdlFunctions.SDL_FreeSurface!(rgba) }
        let width = Int(rgba.pointee.w)
        let height = Int(rgba.pointee.h)
        let pitch = Int(rgba.pointee.pitch)
        guard let base = rgba.pointee.pixels?.assumingMemoryBound(to: UInt8.self) else { return nil }
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0 ..< height {
            for byte in 0 ..< width * 4 { pixels[row * width * 4 + byte] = base[row * pitch + byte] }
        }
        return (pixels, width, height)
    }
}
