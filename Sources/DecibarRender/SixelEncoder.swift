import CSixel
import DecibarCore

/// libsixel, opened on first use (see CLoader.h).
let sixelLibrary = LoadedLibrary<DecibarSixel> { decibar_sixel_load($0, $1) }

/// Turns RGBA frames into sixel images with libsixel (chosen over hand-written quantizing and
/// run-length coding: it is the reference encoder, in Debian, and small). Frames use one fixed
/// 256-colour palette (xterm's: the ANSI colours, a 6×6×6 cube and a grey ramp), sent with each
/// image (a terminal's own registers differ), so no palette is computed per frame. Use from one thread.
public final class SixelEncoder {
    private let dither: OpaquePointer
    private var output: OpaquePointer?
    /// Where the encoder's callback appends, for the duration of one `encode`.
    private var sink: [UInt8] = []
    /// The frame as indexes into the palette: the colours are mapped here (the cube is arithmetic),
    /// libsixel's own lookup mapping a set palette's colours wrongly in 1.10.
    private var indexes: [UInt8] = []

    public init() throws(RenderError) {
        if let failure = sixelLibrary.failure { throw RenderError("cannot draw sixel images: \(failure)") }
        let functions = sixelLibrary.table!
        var made: OpaquePointer?
        guard decibar_sixel_succeeded(functions.sixel_dither_new!(&made, 256, nil)) != 0, let dither = made else {
            throw RenderError("cannot draw sixel images: libsixel cannot make a palette")
        }
        // Otherwise the palette shrinks to the first frame's colours and the next frames map into it wrongly.
        functions.sixel_dither_set_optimize_palette!(dither, 1)
        self.dither = dither
        let started = functions.sixel_output_new!(&output, { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let encoder = Unmanaged<SixelEncoder>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { encoder.sink.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size))) }
            return size
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        guard decibar_sixel_succeeded(started) != 0, output != nil else {
            functions.sixel_dither_unref!(dither)
            throw RenderError("cannot draw sixel images: libsixel's output did not start")
        }
    }

    /// xterm's 256 colours, RGB.
    static let palette: [UInt8] = {
        var colors: [UInt8] = []
        let ansi: [UInt32] = [0x000000, 0xCD0000, 0x00CD00, 0xCDCD00, 0x0000EE, 0xCD00CD, 0x00CDCD, 0xE5E5E5,
                              0x7F7F7F, 0xFF0000, 0x00FF00, 0xFFFF00, 0x5C5CFF, 0xFF00FF, 0x00FFFF, 0xFFFFFF]
        for color in ansi { colors += [UInt8(color >> 16), UInt8(color >> 8 & 0xFF), UInt8(color & 0xFF)] }
        let steps: [UInt8] = [0, 95, 135, 175, 215, 255]
        for red in steps { for green in steps { for blue in steps { colors += [red, green, blue] } } }
        for grey in 0..<24 { colors += Array(repeating: UInt8(8 + 10 * grey), count: 3) }
        return colors
    }()

    deinit {
        let functions = sixelLibrary.table!
        if let output { functions.sixel_output_unref!(output) }
        functions.sixel_dither_unref!(dither)
    }

    /// Appends the sixel image of `rgba` (`width`×`height`, top row first) to `out`; false when
    /// libsixel refused it.
    public func encode(_ rgba: [UInt8], width: Int, height: Int, into out: inout [UInt8]) -> Bool {
        let count = width * height
        guard rgba.count >= count * 4 else { return false }
        if indexes.count != count { indexes = [UInt8](repeating: 0, count: count) }
        rgba.withUnsafeBufferPointer { source in
            indexes.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<count {
                    target[pixel] = UInt8(TerminalColorDepth.palette256Index(red: Int(source[pixel * 4]), green: Int(source[pixel * 4 + 1]),
                                                                              blue: Int(source[pixel * 4 + 2])))
                }
            }
        }
        swap(&sink, &out)
        defer { swap(&sink, &out) }
        // Set again for each frame: encoding leaves the dither with the indexed frame's format.
        let functions = sixelLibrary.table!
        var palette = Self.palette
        functions.sixel_dither_set_palette!(dither, &palette)
        functions.sixel_dither_set_pixelformat!(dither, decibar_sixel_pixelformat_pal8())
        let status = indexes.withUnsafeMutableBufferPointer { pixels in
            functions.sixel_encode!(pixels.baseAddress, Int32(width), Int32(height), 1, dither, output)
        }
        return decibar_sixel_succeeded(status) != 0
    }
}
