/// A zlib stream (RFC 1950) whose DEFLATE data (RFC 1951) uses the fixed Huffman table, or
/// stored blocks when that would expand the data.
///
/// The fixed table keeps the encoder small. PNG screenshots are dominated by long runs that the
/// LZ77 matcher turns into a handful of length/distance pairs, so a dynamic table would only
/// shave off a little more.
enum Deflate {
    /// Compresses `input` into a complete zlib stream: header, DEFLATE data, Adler-32.
    static func zlibCompress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        // CMF 0x78: deflate with a 32 KiB window. FLG 0x5E: "fast" level (informational only),
        // chosen so that CMF * 256 + FLG is a multiple of 31 as the header check requires.
        var stream: [UInt8] = [0x78, 0x5E]
        let compressed = fixedHuffmanBlock(input)
        // Fixed codes spend 8 or 9 bits per literal, so noise-like input grows a little;
        // storing it verbatim then bounds the overhead at five bytes per 64 KiB.
        let storedBlockCount = max(1, (input.count + maximumStoredLength - 1) / maximumStoredLength)
        if compressed.count <= input.count + 5 * storedBlockCount {
            stream += compressed
        } else {
            appendStoredBlocks(input, to: &stream)
        }
        let checksum = adler32(input)
        for shift in stride(from: 24, through: 0, by: -8) {
            stream.append(UInt8(truncatingIfNeeded: checksum >> UInt32(shift)))
        }
        return stream
    }

    private static let maximumStoredLength = 65_535

    /// One final block (BFINAL = 1, BTYPE = 01) holding all of `input`.
    private static func fixedHuffmanBlock(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 8 + 64)
        // Header fields are packed LSB first: BFINAL in bit 0, BTYPE in bits 1-2.
        writer.write(0b011, count: 3)
        if let base = input.baseAddress, !input.isEmpty {
            let matcher = Matcher(base: base, count: input.count)
            defer { matcher.deallocate() }
            matcher.encode(into: &writer)
        }
        writer.write(FixedCode.endOfBlock, count: FixedCode.endOfBlockLength)
        return writer.finish()
    }

    /// Uncompressed blocks (BTYPE = 00): a byte-aligned header, LEN and its complement, then the data.
    private static func appendStoredBlocks(_ input: UnsafeBufferPointer<UInt8>, to stream: inout [UInt8]) {
        var start = 0
        repeat {
            let end = min(start + maximumStoredLength, input.count)
            let length = UInt16(end - start)
            stream.append(end == input.count ? 1 : 0)
            stream += [UInt8(truncatingIfNeeded: length), UInt8(truncatingIfNeeded: length >> 8)]
            stream += [UInt8(truncatingIfNeeded: ~length), UInt8(truncatingIfNeeded: ~length >> 8)]
            stream += UnsafeBufferPointer(rebasing: input[start..<end])
            start = end
        } while start < input.count
    }

    /// The Adler-32 checksum that ends a zlib stream.
    static func adler32(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let modulus: UInt32 = 65_521
        var low: UInt32 = 1
        var high: UInt32 = 0
        var pending = 0
        for byte in bytes {
            low &+= UInt32(byte)
            high &+= low
            pending += 1
            // 5552 is the longest run for which `high` cannot overflow 32 bits, so the costly
            // modulo runs once per run instead of once per byte.
            if pending == 5552 {
                low %= modulus
                high %= modulus
                pending = 0
            }
        }
        return (high % modulus) << 16 | (low % modulus)
    }
}

// MARK: - Fixed Huffman code

/// Codes of the fixed Huffman table, pre-reversed so they can be written LSB first like every
/// other DEFLATE field (Huffman codes are defined MSB first).
private enum FixedCode {
    static let endOfBlock: UInt32 = 0 // symbol 256: seven zero bits
    static let endOfBlockLength = 7

    /// Literal bytes 0...255, packed as `bits | length << 24`.
    static let literals: [UInt32] = (0..<256).map { literal in
        let (code, length) = symbolCode(literal)
        return pack(code, length)
    }

    /// Match lengths 3...258 (indexed by the length itself): the length symbol's code followed by
    /// its extra bits, packed as `bits | length << 24`.
    static let lengths: [UInt32] = (0...258).map { length in
        guard length >= 3 else { return 0 }
        let symbol: Int
        var extraBitCount = 0
        var extraValue = 0
        if length == 258 {
            symbol = 285
        } else {
            let offset = length - 3
            if offset < 8 {
                symbol = 257 + offset
            } else {
                // Each group of four symbols doubles the span covered, starting at offset 8.
                let magnitude = Int.bitWidth - offset.leadingZeroBitCount - 1
                extraBitCount = magnitude - 2
                let group = (offset >> extraBitCount) & 3
                symbol = 257 + 4 * (magnitude - 1) + group
                extraValue = offset - ((4 + group) << extraBitCount)
            }
        }
        let (code, codeLength) = symbolCode(symbol)
        return pack(code | UInt32(extraValue) << UInt32(codeLength), codeLength + extraBitCount)
    }

    /// Writes distance `distance` (1...32768): a five-bit code plus extra bits.
    @inline(__always)
    static func writeDistance(_ distance: Int, to writer: inout BitWriter) {
        let offset = distance - 1
        if offset < 4 {
            writer.write(reverse(UInt32(offset), length: 5), count: 5)
            return
        }
        // Two codes per power of two, the second-highest bit choosing between them.
        let magnitude = Int.bitWidth - offset.leadingZeroBitCount - 1
        let extraBitCount = magnitude - 1
        let code = 2 * magnitude + ((offset >> extraBitCount) & 1)
        let extraValue = UInt32(offset & ((1 << extraBitCount) - 1))
        writer.write(reverse(UInt32(code), length: 5) | extraValue << 5, count: 5 + extraBitCount)
    }

    /// The fixed code of literal/length symbol `symbol` (RFC 1951, 3.2.6), already reversed.
    private static func symbolCode(_ symbol: Int) -> (code: UInt32, length: Int) {
        switch symbol {
        case 0...143: (reverse(UInt32(0x30 + symbol), length: 8), 8)
        case 144...255: (reverse(UInt32(0x190 + symbol - 144), length: 9), 9)
        case 256...279: (reverse(UInt32(symbol - 256), length: 7), 7)
        default: (reverse(UInt32(0xC0 + symbol - 280), length: 8), 8)
        }
    }

    private static func pack(_ bits: UInt32, _ length: Int) -> UInt32 {
        bits | UInt32(length) << 24
    }

    @inline(__always)
    private static func reverse(_ code: UInt32, length: Int) -> UInt32 {
        code.bitReversed >> UInt32(32 - length)
    }
}

private extension UInt32 {
    var bitReversed: UInt32 {
        var value = self
        var result: UInt32 = 0
        for _ in 0..<32 {
            result = (result << 1) | (value & 1)
            value >>= 1
        }
        return result
    }
}

// MARK: - Bit writer

/// Collects DEFLATE's LSB-first bit fields into bytes.
private struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `count` bits of `bits` (at most 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, count: Int) {
        pending |= UInt64(bits) << UInt64(pendingCount)
        pendingCount += count
        // Draining whole 32-bit words keeps `pendingCount` below 32, so the next write fits.
        if pendingCount >= 32 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            bytes.append(UInt8(truncatingIfNeeded: pending >> 8))
            bytes.append(UInt8(truncatingIfNeeded: pending >> 16))
            bytes.append(UInt8(truncatingIfNeeded: pending >> 24))
            pending >>= 32
            pendingCount -= 32
        }
    }

    /// Writes a value packed as `bits | length << 24`.
    @inline(__always)
    mutating func write(packed: UInt32) {
        write(packed & 0xFF_FFFF, count: Int(packed >> 24))
    }

    /// Pads with zero bits to a byte boundary and returns everything written.
    mutating func finish() -> [UInt8] {
        write(0, count: (8 - pendingCount % 8) % 8)
        while pendingCount > 0 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
        return bytes
    }
}

// MARK: - LZ77 matcher

/// Greedy LZ77 with one step of lazy evaluation, over hash chains of three-byte prefixes.
private struct Matcher {
    private static let windowSize = 32_768
    private static let minimumLength = 3
    private static let maximumLength = 258
    private static let hashBits = 15
    /// Bounds the work per position so noisy input cannot make the search quadratic.
    private static let maximumChainLength = 64
    /// A match this long is good enough; searching further rarely pays off.
    private static let niceLength = 128
    /// Matches shorter than this are worth checking against a match starting one byte later.
    private static let lazyLength = 32

    private let base: UnsafePointer<UInt8>
    private let count: Int
    /// Most recent position for each hash value, or -1.
    private let head: UnsafeMutablePointer<Int32>
    /// For each position modulo the window, the previous position with the same hash.
    private let previous: UnsafeMutablePointer<Int32>

    init(base: UnsafePointer<UInt8>, count: Int) {
        precondition(count < Int(Int32.max), "input too large for 32-bit match positions")
        self.base = base
        self.count = count
        head = .allocate(capacity: 1 << Self.hashBits)
        head.initialize(repeating: -1, count: 1 << Self.hashBits)
        previous = .allocate(capacity: Self.windowSize)
        previous.initialize(repeating: -1, count: Self.windowSize)
    }

    func deallocate() {
        head.deallocate()
        previous.deallocate()
    }

    func encode(into writer: inout BitWriter) {
        let literals = FixedCode.literals
        let lengths = FixedCode.lengths
        var position = 0
        var match = insertAndFindMatch(at: 0)
        while position < count {
            guard match.length >= Self.minimumLength else {
                writer.write(packed: literals[Int(base[position])])
                position += 1
                if position < count { match = insertAndFindMatch(at: position) }
                continue
            }
            var inserted = position + 1
            if match.length < Self.lazyLength && position + 1 < count {
                let next = insertAndFindMatch(at: position + 1)
                inserted += 1
                if next.length > match.length {
                    // Deferring by one byte buys a longer match: emit a literal and keep `next`.
                    writer.write(packed: literals[Int(base[position])])
                    position += 1
                    match = next
                    continue
                }
            }
            writer.write(packed: lengths[match.length])
            FixedCode.writeDistance(match.distance, to: &writer)
            // Positions inside the match must still be findable by later searches.
            let end = position + match.length
            while inserted < end {
                insert(at: inserted)
                inserted += 1
            }
            position = end
            if position < count { match = insertAndFindMatch(at: position) }
        }
    }

    @inline(__always)
    private func hash(at position: Int) -> Int {
        let prefix = UInt32(base[position]) << 16 | UInt32(base[position + 1]) << 8 | UInt32(base[position + 2])
        // Multiplicative hashing spreads similar prefixes across the table.
        return Int((prefix &* 2_654_435_761) >> UInt32(32 - Self.hashBits))
    }

    /// Links `position` into its hash chain and returns the old chain head.
    @inline(__always)
    @discardableResult
    private func insert(at position: Int) -> Int {
        guard position + Self.minimumLength <= count else { return -1 }
        let slot = hash(at: position)
        let older = head[slot]
        previous[position & (Self.windowSize - 1)] = older
        head[slot] = Int32(position)
        return Int(older)
    }

    /// Inserts `position` and returns the longest earlier match in the window (length 0 if none).
    private func insertAndFindMatch(at position: Int) -> (length: Int, distance: Int) {
        guard position + Self.minimumLength <= count else { return (0, 0) }
        var candidate = insert(at: position)
        let limit = min(Self.maximumLength, count - position)
        let oldest = position - Self.windowSize
        var bestLength = Self.minimumLength - 1
        var bestDistance = 0
        var chainLeft = Self.maximumChainLength
        while candidate >= 0 && candidate >= oldest && chainLeft > 0 {
            // A candidate can only win if it also matches the byte just past the current best.
            if base[candidate + bestLength] == base[position + bestLength] {
                let length = matchLength(candidate, position, limit: limit)
                if length > bestLength {
                    bestLength = length
                    bestDistance = position - candidate
                    if length >= limit || length >= Self.niceLength { break }
                }
            }
            let next = Int(previous[candidate & (Self.windowSize - 1)])
            // The slot of a candidate exactly one window back was just reused by `position`,
            // so only strictly older links are genuine.
            if next >= candidate { break }
            candidate = next
            chainLeft -= 1
        }
        return bestLength >= Self.minimumLength ? (bestLength, bestDistance) : (0, 0)
    }

    /// Number of equal bytes (up to `limit`) at `earlier` and `later`, compared eight at a time.
    @inline(__always)
    private func matchLength(_ earlier: Int, _ later: Int, limit: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var length = 0
        while length + 8 <= limit {
            let a = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: earlier + length, as: UInt64.self))
            let b = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: later + length, as: UInt64.self))
            let difference = a ^ b
            if difference != 0 {
                return length + difference.trailingZeroBitCount / 8
            }
            length += 8
        }
        while length < limit && base[earlier + length] == base[later + length] {
            length += 1
        }
        return length
    }
}
