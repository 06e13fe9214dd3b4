/// A drawn frame converted for the H.264 encoder: NV12, the luma plane (a byte a pixel, top row
/// first) followed by the chroma plane (a U,V pair for each 2x2 block, row by row).
///
/// Done here rather than by ffmpeg's converter, which on two cores took a third of a 1080p
/// encode's time, or on Mesa's software renderer, whose texel fetches cost twice this loop.
/// BT.601 limited range with the rounding of the usual 8-bit integer formulas: what ffmpeg
/// produces for `-pix_fmt yuv420p` from RGB, so a video looks as it did.
public enum NV12Frame {
    /// Bytes of an NV12 frame of this size.
    public static func byteCount(width: Int, height: Int) -> Int { width * height * 3 / 2 }

    /// Converts `rgba` (`width`x`height`, bottom row first, as OpenGL reads it back) into `nv12`,
    /// which holds `byteCount` bytes. `width` and `height` are even.
    public static func convert(rgba: UnsafeRawBufferPointer, width: Int, height: Int, into nv12: UnsafeMutableRawBufferPointer) {
        precondition(width % 2 == 0 && height % 2 == 0 && rgba.count >= width * height * 4 && nv12.count >= byteCount(width: width, height: height))
        let source = rgba.bindMemory(to: UInt8.self).baseAddress!
        let out = nv12.bindMemory(to: UInt8.self).baseAddress!
        let chromaBase = out + width * height
        var row = 0
        while row < height {
            // Two output rows (top first) come from source rows height-1-row and height-2-row.
            let upper = UnsafeRawPointer(source + (height - 1 - row) * width * 4)
            let lower = UnsafeRawPointer(source + (height - 2 - row) * width * 4)
            let lumaUpper = UnsafeMutableRawPointer(out + row * width)
            let lumaLower = lumaUpper + width
            let chroma = UnsafeMutableRawPointer(chromaBase + (row / 2) * width)
            var x = 0
            // Eight pixels at a time in 32-bit lanes (vector instructions), then what is left one block at a time.
            while x + 8 <= width {
                let (top, topSums) = Self.luma8(upper.loadUnaligned(fromByteOffset: x * 4, as: SIMD8<UInt32>.self))
                let (bottom, bottomSums) = Self.luma8(lower.loadUnaligned(fromByteOffset: x * 4, as: SIMD8<UInt32>.self))
                lumaUpper.storeBytes(of: top, toByteOffset: x, as: SIMD8<UInt8>.self)
                lumaLower.storeBytes(of: bottom, toByteOffset: x, as: SIMD8<UInt8>.self)
                let red = topSums.red &+ bottomSums.red, green = topSums.green &+ bottomSums.green, blue = topSums.blue &+ bottomSums.blue
                let u = ((-38 &* red &- 74 &* green &+ 112 &* blue &+ 512) &>> 10) &+ 128
                let v = ((112 &* red &- 94 &* green &- 18 &* blue &+ 512) &>> 10) &+ 128
                // U then V in memory: the pair as a little-endian 16-bit value.
                let pairs = SIMD4<UInt16>(truncatingIfNeeded: u) | (SIMD4<UInt16>(truncatingIfNeeded: v) &<< 8)
                chroma.storeBytes(of: pairs, toByteOffset: x, as: SIMD4<UInt16>.self)
                x += 8
            }
            while x < width {
                var red: Int32 = 0, green: Int32 = 0, blue: Int32 = 0
                @inline(__always) func take(_ line: UnsafeRawPointer, _ luma: UnsafeMutableRawPointer, _ column: Int) {
                    let pixel = line.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self)
                    let r = Int32(pixel & 0xFF), g = Int32((pixel >> 8) & 0xFF), b = Int32((pixel >> 16) & 0xFF)
                    luma.storeBytes(of: UInt8(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) >> 8) &+ 16),
                                    toByteOffset: column, as: UInt8.self)
                    red &+= r
                    green &+= g
                    blue &+= b
                }
                take(upper, lumaUpper, x)
                take(upper, lumaUpper, x + 1)
                take(lower, lumaLower, x)
                take(lower, lumaLower, x + 1)
                chroma.storeBytes(of: UInt8(truncatingIfNeeded: ((-38 &* red &- 74 &* green &+ 112 &* blue &+ 512) >> 10) &+ 128),
                                  toByteOffset: x, as: UInt8.self)
                chroma.storeBytes(of: UInt8(truncatingIfNeeded: ((112 &* red &- 94 &* green &- 18 &* blue &+ 512) >> 10) &+ 128),
                                  toByteOffset: x + 1, as: UInt8.self)
                x += 2
            }
            row += 2
        }
    }

    /// The luma of eight RGBA pixels (little-endian: red in the low byte), and the sums of each
    /// horizontal pair's red, green and blue, for the chroma.
    @inline(__always)
    private static func luma8(_ pixels: SIMD8<UInt32>) -> (SIMD8<UInt8>, (red: SIMD4<Int32>, green: SIMD4<Int32>, blue: SIMD4<Int32>)) {
        let r = SIMD8<Int32>(truncatingIfNeeded: pixels & 0xFF)
        let g = SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 8) & 0xFF)
        let b = SIMD8<Int32>(truncatingIfNeeded: (pixels &>> 16) & 0xFF)
        let luma = SIMD8<UInt8>(truncatingIfNeeded: ((66 &* r &+ 129 &* g &+ 25 &* b &+ 128) &>> 8) &+ 16)
        return (luma, (r.evenHalf &+ r.oddHalf, g.evenHalf &+ g.oddHalf, b.evenHalf &+ b.oddHalf))
    }
}
