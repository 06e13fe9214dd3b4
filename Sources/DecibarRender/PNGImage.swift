import CPNG
import DecibarCore

/// libpng, opened on first use (see CLoader.h).
let pngLibrary = LoadedLibrary<DecibarPNG> { decibar_png_load($0, $1) }
/// Its functions; reached only once `pngLibrary` loaded.
var pngFunctions: DecibarPNG { pngLibrary.table! }

/// PNG files of what was drawn (screenshots, render frames), through libpng's simplified API.
public enum PNGImage {
    /// PNG bytes of `width`×`height` RGBA pixels (rows bottom first, as OpenGL reads them, when
    /// `flipVertically`). Fast zlib settings: frames are written by the thousand.
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int, flipVertically: Bool) throws(RenderError) -> [UInt8] {
        if let failure = pngLibrary.failure { throw RenderError(failure) }
        precondition(pixels.count >= width * height * 4, "pixel buffer too small")
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = decibar_png_format_rgba()
        image.flags = png_uint_32(PNG_IMAGE_FLAG_FAST)
        // A negative stride tells libpng the rows run bottom to top.
        let stride = png_int_32(flipVertically ? -(width * 4) : width * 4)
        var size: png_alloc_size_t = 0
        let measured = pixels.withUnsafeBytes { pngFunctions.png_image_write_to_memory!(&image, nil, &size, 0, $0.baseAddress, stride, nil) }
        guard measured != 0, size > 0 else { throw failure(&image, "cannot make a PNG") }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let written = bytes.withUnsafeMutableBytes { output in
            pixels.withUnsafeBytes { pngFunctions.png_image_write_to_memory!(&image, output.baseAddress, &size, 0, $0.baseAddress, stride, nil) }
        }
        guard written != 0 else { throw failure(&image, "cannot make a PNG") }
        bytes.removeLast(bytes.count - Int(size))
        return bytes
    }

    /// The RGBA pixels of PNG bytes, top row first.
    public static func decode(_ bytes: [UInt8]) throws(RenderError) -> (pixels: [UInt8], width: Int, height: Int) {
        if let failure = pngLibrary.failure { throw RenderError(failure) }
        var image = png_image()
        image.version = png_uint_32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { pngFunctions.png_image_begin_read_from_memory!(&image, $0.baseAddress, $0.count) }
        guard begun != 0 else { throw failure(&image, "not a PNG") }
        image.format = decibar_png_format_rgba()
        let width = Int(image.width), height = Int(image.height)
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let finished = pixels.withUnsafeMutableBytes { pngFunctions.png_image_finish_read!(&image, nil, $0.baseAddress, png_int_32(width * 4), nil) }
        guard finished != 0 else { throw failure(&image, "cannot read the PNG") }
        return (pixels, width, height)
    }

    private static func failure(_ image: inout png_image, _ what: String) -> RenderError {
        let message = withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        pngFunctions.png_image_free!(&image)
        return RenderError(message.isEmpty ? what : "\(what): \(message)")
    }
}
