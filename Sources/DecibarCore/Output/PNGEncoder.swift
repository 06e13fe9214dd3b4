/// Encodes 8-bit RGBA pixels as a PNG file.
///
/// Each row gets the PNG filter with the smallest sum of absolute residuals, and the filtered
/// rows are compressed with the in-house DEFLATE encoder. That is enough to make screenshots of
/// flat areas and gradients small without any C library.
public enum PNGEncoder {
    /// Returns a complete PNG file.
    ///
    /// `pixels` holds width*height*4 bytes, rows top to bottom, RGBA order.
    /// `flipVertically: true` accepts rows bottom to top (as glReadPixels returns them).
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int, flipVertically: Bool = false) -> [UInt8] {
        pixels.withUnsafeBufferPointer { buffer in
            encode(rgba: buffer, width: width, height: height, flipVertically: flipVertically)
        }
    }

    /// Returns a complete PNG file; `pixels` is laid out as for the array overload.
    public static func encode(
        rgba pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, flipVertically: Bool = false
    ) -> [UInt8] {
        // PNG stores dimensions as positive 31-bit integers.
        precondition(width > 0 && height > 0, "a PNG needs at least one pixel")
        precondition(width <= Int(Int32.max) && height <= Int(Int32.max), "PNG dimensions are limited to 2^31 - 1")
        let (rowByteCount, rowOverflow) = width.multipliedReportingOverflow(by: bytesPerPixel)
        let (pixelByteCount, sizeOverflow) = rowByteCount.multipliedReportingOverflow(by: height)
        precondition(!rowOverflow && !sizeOverflow && pixels.count == pixelByteCount,
                     "expected width * height * 4 bytes of RGBA")

        let filtered = filterRows(pixels, rowByteCount: rowByteCount, height: height, flipVertically: flipVertically)
        let compressed = filtered.withUnsafeBufferPointer { Deflate.zlibCompress($0) }

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(png.count + compressed.count + 64 + compressed.count / maximumChunkLength * 12)

        var header: [UInt8] = []
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        // Bit depth 8, color type 6 (RGBA), deflate compression, adaptive filtering, no interlace.
        header += [8, 6, 0, 0, 0]
        appendChunk("IHDR", header, to: &png)

        // Splitting IDAT keeps every chunk comfortably small for streaming decoders.
        var start = 0
        repeat {
            let end = min(start + maximumChunkLength, compressed.count)
            appendChunk("IDAT", compressed[start..<end], to: &png)
            start = end
        } while start < compressed.count

        appendChunk("IEND", [], to: &png)
        return png
    }

    /// The CRC-32 (ISO-HDLC, as used by PNG and zlib) of `bytes`.
    static func crc32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let table = crcTable
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc = table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ (crc >> 8)
        }
        return ~crc
    }

    // MARK: - Chunks

    private static let bytesPerPixel = 4
    private static let maximumChunkLength = 1 << 16

    /// Remainders for each byte value under the reflected polynomial 0xEDB88320.
    private static let crcTable: [UInt32] = (0..<256).map { value in
        var remainder = UInt32(value)
        for _ in 0..<8 {
            remainder = remainder & 1 == 0 ? remainder >> 1 : 0xEDB8_8320 ^ (remainder >> 1)
        }
        return remainder
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        for shift in stride(from: 24, through: 0, by: -8) {
            bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift)))
        }
    }

    /// Appends length, type, data and the CRC over type and data.
    private static func appendChunk(_ type: StaticString, _ data: some Collection<UInt8>, to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let typeStart = png.count
        type.withUTF8Buffer { png.append(contentsOf: $0) }
        png.append(contentsOf: data)
        appendBigEndian(crc32(png[typeStart...]), to: &png)
    }

    // MARK: - Filtering

    /// PNG filter types; the raw value is the byte that starts each filtered row.
    private enum RowFilter: UInt8, CaseIterable {
        case none = 0, sub, up, average, paeth
    }

    /// Prefixes every row with its filter type and replaces bytes with residuals, in file order.
    private static func filterRows(
        _ pixels: UnsafeBufferPointer<UInt8>, rowByteCount: Int, height: Int, flipVertically: Bool
    ) -> [UInt8] {
        let source = pixels.baseAddress!
        let zeroRow = [UInt8](repeating: 0, count: rowByteCount)
        var filtered = [UInt8](repeating: 0, count: height * (rowByteCount + 1))
        filtered.withUnsafeMutableBufferPointer { output in
            zeroRow.withUnsafeBufferPointer { zeros in
                func sourceRow(_ y: Int) -> UnsafePointer<UInt8> {
                    source + (flipVertically ? height - 1 - y : y) * rowByteCount
                }
                for y in 0..<height {
                    let row = sourceRow(y)
                    // Filters predict from the row above in the file, which is all zeros for the first row.
                    let prior = y == 0 ? zeros.baseAddress! : sourceRow(y - 1)
                    let destination = output.baseAddress! + y * (rowByteCount + 1)
                    let filter = bestFilter(row: row, prior: prior, count: rowByteCount)
                    destination[0] = filter.rawValue
                    apply(filter, row: row, prior: prior, count: rowByteCount, to: destination + 1)
                }
            }
        }
        return filtered
    }

    /// The filter whose residuals, read as signed bytes, have the smallest absolute sum: a cheap
    /// stand-in for "compresses best" that the PNG specification recommends.
    private static func bestFilter(row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int) -> RowFilter {
        var none = 0, sub = 0, up = 0, average = 0, paeth = 0
        for index in 0..<count {
            let (left, above, upperLeft) = neighbours(row: row, prior: prior, index: index)
            let value = row[index]
            none += magnitude(value)
            sub += magnitude(value &- left)
            up += magnitude(value &- above)
            average += magnitude(value &- averagePredictor(left, above))
            paeth += magnitude(value &- paethPredictor(left, above, upperLeft))
        }
        let costs: [(RowFilter, Int)] = [(.none, none), (.sub, sub), (.up, up), (.average, average), (.paeth, paeth)]
        // `min` keeps the first of equal costs, so ties go to the simplest filter.
        return costs.min { $0.1 < $1.1 }!.0
    }

    private static func apply(
        _ filter: RowFilter, row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int,
        to destination: UnsafeMutablePointer<UInt8>
    ) {
        for index in 0..<count {
            let (left, above, upperLeft) = neighbours(row: row, prior: prior, index: index)
            let prediction: UInt8 = switch filter {
            case .none: 0
            case .sub: left
            case .up: above
            case .average: averagePredictor(left, above)
            case .paeth: paethPredictor(left, above, upperLeft)
            }
            destination[index] = row[index] &- prediction
        }
    }

    /// The same channel of the pixel to the left, above, and above-left; zero outside the image.
    @inline(__always)
    private static func neighbours(
        row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, index: Int
    ) -> (left: UInt8, above: UInt8, upperLeft: UInt8) {
        guard index >= bytesPerPixel else { return (0, prior[index], 0) }
        return (row[index - bytesPerPixel], prior[index], prior[index - bytesPerPixel])
    }

    @inline(__always)
    private static func magnitude(_ residual: UInt8) -> Int {
        residual < 128 ? Int(residual) : 256 - Int(residual)
    }

    @inline(__always)
    private static func averagePredictor(_ left: UInt8, _ above: UInt8) -> UInt8 {
        UInt8((Int(left) + Int(above)) / 2)
    }

    /// Whichever neighbour is closest to left + above - upperLeft, preferring left, then above.
    @inline(__always)
    private static func paethPredictor(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(above) - Int(upperLeft)
        let leftDistance = abs(estimate - Int(left))
        let aboveDistance = abs(estimate - Int(above))
        let upperLeftDistance = abs(estimate - Int(upperLeft))
        if leftDistance <= aboveDistance && leftDistance <= upperLeftDistance { return left }
        return aboveDistance <= upperLeftDistance ? above : upperLeft
    }
}
