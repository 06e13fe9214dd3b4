import CSixel
import DecibarCore

/// libsixel, opened on first use (see CLoader.h).
let sixelLibrary = LoadedLibrary<DecibarSixel> { decibar_sixel_load($0, $1) }

/// Turns RGBA frames into sixel images with libsixel (chosen over hand-written quantizing and
/// run-length coding: it is the reference encoder, in Debian, and small). Each frame gets a
/// palette of its own, up to 256 colours picked from its pixels by libsixel's median cut, and sent
/// with the image: a fixed palette (xterm's cube) turned Milkdrop's soft gradients into a few dozen
/// bands. Use from one thread.
public final class SixelEncoder {
    private var output: OpaquePointer?
    /// Where the encoder's callback appends, for the duration of one `encode`.
    private var sink: [UInt8] = []
    /// The frame as RGB: libsixel 1.10 reads RGBA8888 with green and blue swapped.
    private var rgb: [UInt8] = []

    public init() throws(RenderError) {
        if let failure = sixelLibrary.failure { throw RenderError("cannot draw sixel images: \(failure)") }
        let functions = sixelLibrary.table!
        let started = functions.sixel_output_new!(&output, { data, size, context in
            guard let data, let context, size > 0 else { return 0 }
            let encoder = Unmanaged<SixelEncoder>.fromOpaque(context).takeUnretainedValue()
            data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { encoder.sink.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size))) }
            return size
        }, Unmanaged.passUnretained(self).toOpaque(), nil)
        guard decibar_sixel_succeeded(started) != 0, output != nil else {
            throw RenderError("cannot draw sixel images: libsixel's output did not start")
        }
    }

    deinit {
        if let output { sixelLibrary.table!.sixel_output_unref!(output) }
    }

    /// Appends the sixel image of `rgba` (`width`×`height`, top row first), or of its pixel rows
    /// `rows`, to `out`; false when libsixel refused it.
    public func encode(_ rgba: [UInt8], width: Int, height: Int, rows: Range<Int>? = nil, into out: inout [UInt8]) -> Bool {
        let rows = rows ?? 0 ..< height
        guard rgba.count >= width * height * 4, rows.lowerBound >= 0, rows.upperBound <= height, !rows.isEmpty else { return false }
        let first = rows.lowerBound * width
        let count = rows.count * width
        let height = rows.count
        if rgb.count != count * 3 { rgb = [UInt8](repeating: 0, count: count * 3) }
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<count {
                    target[pixel * 3] = source[(first + pixel) * 4]
                    target[pixel * 3 + 1] = source[(first + pixel) * 4 + 1]
                    target[pixel * 3 + 2] = source[(first + pixel) * 4 + 2]
                }
            }
        }
        let functions = sixelLibrary.table!
        var made: OpaquePointer?
        guard decibar_sixel_succeeded(functions.sixel_dither_new!(&made, 256, nil)) != 0, let dither = made else { return false }
        defer { functions.sixel_dither_unref!(dither) }
        swap(&sink, &out)
        defer { swap(&sink, &out) }
        let status = rgb.withUnsafeMutableBufferPointer { pixels -> SIXELSTATUS in
            let prepared = functions.sixel_dither_initialize!(dither, pixels.baseAddress, Int32(width), Int32(height), decibar_sixel_pixelformat_rgb888(),
                                                              decibar_sixel_large_auto(), decibar_sixel_rep_auto(), decibar_sixel_quality_auto())
            guard decibar_sixel_succeeded(prepared) != 0 else { return prepared }
            functions.sixel_dither_set_diffusion_type!(dither, decibar_sixel_diffuse_none())
            return functions.sixel_encode!(pixels.baseAddress, Int32(width), Int32(height), 3, dither, output)
        }
        return decibar_sixel_succeeded(status) != 0
    }
}
