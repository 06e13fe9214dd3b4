/// A drawn frame converted for the H.264 encoder: NV12, the luma plane (a byte a pixel, top row
/// first) followed by the chroma plane (a U,V pair for each 2x2 block, row by row).
///
/// Done here rather than by ffmpeg's converter, which on two cores took a third of a 1080p
/// encode's time, or on Mesa's software renderer, whose texel fetches cost twice this loop.
/// BT.601 limited range with the usual 8-bit integer formulas, chroma from each 2x2 block's
/// rounded average: within one step of what ffmpeg produces for `-pix_fmt yuv420p` from RGB.
/// Everything fits 16-bit lanes, which baseline x86-64 (SSE2) multiplies eight at a time; with
/// 32-bit lanes, which it cannot, a 1080p frame took 4.7 ms rather than 1.6.
public enum NV12Frame {
    /// Bytes of an NV12 frame of this size.
    public static func byteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Converts `rgba` (`width`x`height`, bottom row first, as OpenGL reads it back) into `nv12`,
    /// which holds `byteCount` bytes. `width` and `height` are even.
    public static func convert(rgba: UnsafeRawBufferPointer, width: Int, height: Int, into nv12: UnsafeMutableRawBufferPointer) {
        convert(band: rgba, width: width, rows: height, topRow: 0, frameHeight: height, into: nv12)
    }

    /// Converts a band of a frame: `rows` rows of `rgba` (bottom row first) that are rows `topRow`
    /// to `topRow + rows - 1` of a `frameHeight`-row frame counted from its top, into their place in
    /// the frame's `nv12`. A frame read back a band at a time is converted while the band is still in
    /// the cache. `width`, `rows` and `topRow` are even.
    public static func convert(band rgba: UnsafeRawBufferPointer, width: Int, rows: Int, topRow: Int, frameHeight: Int,
                               into nv12: UnsafeMutableRawBufferPointer) {
        precondition(width % 2 == 0 && rows % 2 == 0 && topRow % 2 == 0 && topRow + rows <= frameHeight
                     && rgba.count >= width * rows * 4 && nv12.count >= byteCount(width: width, height: frameHeight))
        let source = rgba.bindMemory(to: UInt8.self).baseAddress!
        let out = nv12.bindMemory(to: UInt8.self).baseAddress! + topRow * width
        let chromaBase = nv12.bindMemory(to: UInt8.self).baseAddress! + width * frameHeight + topRow / 2 * width
        let height = rows
        var row = 0
        while row < height {
            let upper = UnsafeRawPointer(source + (height - 1 - row) * width * 4)
            let lower = UnsafeRawPointer(source + (height - 2 - row) * width * 4)
            let lumaUpper = UnsafeMutableRawPointer(out + row * width)
            let lumaLower = lumaUpper + width
            let chroma = UnsafeMutableRawPointer(chromaBase + (row / 2) * width)
            var x = 0
            // Sixteen pixels at a time in 16-bit lanes, then what is left one block at a time.
            while x + 16 <= width {
                let (top, topSums) = Self.luma16(upper.loadUnaligned(fromByteOffset: x * 4, as: SIMD32<UInt16>.self))
                let (bottom, bottomSums) = Self.luma16(lower.loadUnaligned(fromByteOffset: x * 4, as: SIMD32<UInt16>.self))
                lumaUpper.storeBytes(of: top, toByteOffset: x, as: SIMD16<UInt8>.self)
                lumaLower.storeBytes(of: bottom, toByteOffset: x, as: SIMD16<UInt8>.self)
                let red = SIMD8<Int16>(truncatingIfNeeded: (topSums.red &+ bottomSums.red &+ 2) &>> 2)
                let green = SIMD8<Int16>(truncatingIfNeeded: (topSums.green &+ bottomSums.green &+ 2) &>> 2)
                let blue = SIMD8<Int16>(truncatingIfNeeded: (topSums.blue &+ bottomSums.blue &+ 2) &>> 2)
                let u = ((-38 &* red &- 74 &* green &+ 112 &* blue &+ 128) &>> 8) &+ 128
                let v = ((112 &* red &- 94 &* green &- 18 &* blue &+ 128) &>> 8) &+ 128
                let pairs = SIMD8<UInt16>(truncatingIfNeeded: u) | (SIMD8<UInt16>(truncatingIfNeeded: v) &<< 8)
                chroma.storeBytes(of: pairs, toByteOffset: x, as: SIMD8<UInt16>.self)
                x += 16
            }
            while x < width {
                var red = 0, green = 0, blue = 0
                @inline(__always) func take(_ line: UnsafeRawPointer, _ luma: UnsafeMutableRawPointer, _ column: Int) {
                    let pixel = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    let r = Int(pixel & 0xFF), g = Int((pixel >> 8) & 0xFF), b = Int((pixel >> 16) & 0xFF)
                    luma.storeBytes(of: UInt8(truncatingIfNeeded: ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16), toByteOffset: column, as: UInt8.self)
                    red += r
                    green += g
                    blue += b
                }
                take(upper, lumaUpper, x)
                take(upper, lumaUpper, x + 1)
                take(lower, lumaLower, x)
                take(lower, lumaLower, x + 1)
                let r = (red + 2) >> 2, g = (green + 2) >> 2, b = (blue + 2) >> 2
                chroma.storeBytes(of: UInt8(truncatingIfNeeded: ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128), toByteOffset: x, as: UInt8.self)
                chroma.storeBytes(of: UInt8(truncatingIfNeeded: ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128), toByteOffset: x + 1, as: UInt8.self)
                x += 2
            }
            row += 2
        }
    }
    /// The luma of sixteen RGBA pixels (little-endian: red then green in the even 16-bit lanes, blue
    /// then alpha in the odd ones), and the sums of each horizontal pair's red, green and blue.
    @inline(__always)
    private static func luma16(_ pixels: SIMD32<UInt16>) -> (SIMD16<UInt8>, (red: SIMD8<UInt16>, green: SIMD8<UInt16>, blue: SIMD8<UInt16>)) {
        let redGreen = pixels.evenHalf, blueAlpha = pixels.oddHalf
        let r = redGreen & 0xFF, g = redGreen &>> 8, b = blueAlpha & 0xFF
        let luma = SIMD16<UInt8>(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
        return (luma, (r.evenHalf &+ r.oddHalf, g.evenHalf &+ g.oddHalf, b.evenHalf &+ b.oddHalf))
    }
}
