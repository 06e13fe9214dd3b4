import CSDL2
import CSDL2TTF

/// A TrueType font (DejaVu Sans by default) that renders text into RGBA pixels.
final class Font {
    private let handle: OpaquePointer
    let pixelSize: Int

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
    }

    deinit {
        ttfFunctions.TTF_CloseFont!(handle)
    }

    /// `text` as white pixels with coverage in alpha, rows top to bottom, RGBA byte order.
    func render(_ text: String) -> (pixels: [UInt8], width: Int, height: Int)? {
        guard !text.isEmpty,
              let surface = ttfFunctions.TTF_RenderUTF8_Blended!(handle, text, SDL_Color(r: 255, g: 255, b: 255, a: 255)) else { return nil }
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
