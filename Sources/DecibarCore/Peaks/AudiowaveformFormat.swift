/// BBC audiowaveform's waveform data formats, byte for byte: JSON and binary `.dat`.
///
/// Values are written in audiowaveform's 16-bit space (`round(sample·32767)`, clamped); 8-bit data
/// is that value divided by 256, truncated toward zero, as audiowaveform does. Like audiowaveform,
/// the binary writer uses version 1 for one channel and version 2 (with a channel count) otherwise;
/// JSON is always version 2.
public enum AudiowaveformFormat {
    public enum Bits: Int, Sendable, CaseIterable {
        case eight = 8
        case sixteen = 16
    }

    public struct ReadError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// A sample (-1...1) in audiowaveform's 16-bit space.
    @inlinable
    public static func sixteenBit(_ sample: Float) -> Int {
        guard sample.isFinite else { return 0 }
        return Int(Swift.max(-32768, Swift.min(32767, (sample * 32767).rounded())))
    }

    /// The stored value of a sample at `bits`.
    public static func stored(_ sample: Float, bits: Bits) -> Int {
        let value = sixteenBit(sample)
        return bits == .sixteen ? value : value / 256
    }

    /// Calls `body` with the interleaved data: for each index, min and max of channel 0, then of channel 1, ...
    @inlinable
    public static func forEachValue(of peaks: Peaks, bits: Bits, _ body: (Int) -> Void) {
        for index in 0 ..< peaks.length {
            for channel in 0 ..< peaks.channelCount {
                let pair = peaks.pairs[channel][index]
                body(stored(pair.min, bits: bits))
                body(stored(pair.max, bits: bits))
            }
        }
    }

    /// The interleaved data as an array.
    public static func values(of peaks: Peaks, bits: Bits) -> [Int] {
        var values: [Int] = []
        values.reserveCapacity(peaks.length * peaks.channelCount * 2)
        forEachValue(of: peaks, bits: bits) { values.append($0) }
        return values
    }

    /// The JSON text, keys in audiowaveform's order, no spaces.
    public static func json(_ peaks: Peaks, bits: Bits) -> String {
        var bytes: [UInt8] = []
        encodeJSON(peaks, bits: bits) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The binary `.dat` bytes, little-endian.
    public static func binary(_ peaks: Peaks, bits: Bits) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24 + peaks.length * peaks.channelCount * 2 * (bits == .eight ? 1 : 2))
        encodeBinary(peaks, bits: bits) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Bytes are handed out in pieces of about this size, so a writer never holds a whole file.
    public static let chunkSize = 64 * 1024

    /// The JSON text as UTF-8, in pieces (an hour of peaks is millions of numbers).
    public static func encodeJSON<Failure: Error>(_ peaks: Peaks, bits: Bits,
                                                  _ emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure) {
        var chunk = ByteChunk()
        chunk.append("{\"version\":2,\"channels\":\(peaks.channelCount),\"sample_rate\":\(peaks.sampleRate),")
        chunk.append("\"samples_per_pixel\":\(peaks.samplesPerPixel),\"bits\":\(bits.rawValue),")
        chunk.append("\"length\":\(peaks.length),\"data\":[")
        for index in 0 ..< peaks.length {
            for channel in 0 ..< peaks.channelCount {
                let pair = peaks.pairs[channel][index]
                if index > 0 || channel > 0 { chunk.append(UInt8(ascii: ",")) }
                chunk.appendDecimal(stored(pair.min, bits: bits))
                chunk.append(UInt8(ascii: ","))
                chunk.appendDecimal(stored(pair.max, bits: bits))
            }
            try chunk.handOut(to: emit)
        }
        chunk.append("]}")
        try chunk.handOut(to: emit, evenIfNotFull: true)
    }

    /// The binary `.dat` bytes, little-endian, in pieces.
    public static func encodeBinary<Failure: Error>(_ peaks: Peaks, bits: Bits,
                                                    _ emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void) throws(Failure) {
        var chunk = ByteChunk()
        let version = peaks.channelCount == 1 ? 1 : 2
        var header = [version, bits == .eight ? 1 : 0, peaks.sampleRate, peaks.samplesPerPixel, peaks.length]
        if version == 2 { header.append(peaks.channelCount) }
        for value in header {
            let word = UInt32(truncatingIfNeeded: value)
            for shift in stride(from: 0, to: 32, by: 8) { chunk.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        for index in 0 ..< peaks.length {
            for channel in 0 ..< peaks.channelCount {
                let pair = peaks.pairs[channel][index]
                chunk.appendSample(stored(pair.min, bits: bits), bits: bits)
                chunk.appendSample(stored(pair.max, bits: bits), bits: bits)
            }
            try chunk.handOut(to: emit)
        }
        try chunk.handOut(to: emit, evenIfNotFull: true)
    }

    /// Bytes collected up to about `chunkSize`, then handed out and reused.
    private struct ByteChunk {
        private var bytes: [UInt8] = []

        init() { bytes.reserveCapacity(AudiowaveformFormat.chunkSize + 64) }

        mutating func append(_ byte: UInt8) { bytes.append(byte) }

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        mutating func appendSample(_ value: Int, bits: Bits) {
            if bits == .eight {
                bytes.append(UInt8(bitPattern: Int8(value)))
            } else {
                let half = UInt16(bitPattern: Int16(value))
                bytes.append(UInt8(half & 0xFF))
                bytes.append(UInt8(half >> 8))
            }
        }

        mutating func appendDecimal(_ value: Int) { DecimalText.append(integer: value, to: &bytes) }

        mutating func handOut<Failure: Error>(to emit: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Void,
                                              evenIfNotFull: Bool = false) throws(Failure) {
            guard evenIfNotFull ? !bytes.isEmpty : bytes.count >= AudiowaveformFormat.chunkSize else { return }
            try bytes.withUnsafeBufferPointer { (piece) throws(Failure) in try emit(piece) }
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// The fixed part of a `.dat` file: enough to know how long the whole file must be before
    /// reading any more of it.
    public struct BinaryHeader: Equatable, Sendable {
        public var version: Int
        public var bits: Bits
        public var sampleRate: Int
        public var samplesPerPixel: Int
        /// Pairs per channel.
        public var length: Int
        public var channelCount: Int

        public init(version: Int, bits: Bits, sampleRate: Int, samplesPerPixel: Int, length: Int, channelCount: Int) {
            self.version = version
            self.bits = bits
            self.sampleRate = sampleRate
            self.samplesPerPixel = samplesPerPixel
            self.length = length
            self.channelCount = channelCount
        }

        /// Bytes before the data: 20 for version 1, 24 for version 2.
        public var size: Int { version == 1 ? 20 : 24 }

        /// The exact size of a file with this header.
        public var fileSize: Int64 {
            Int64(size) + Int64(length) * Int64(channelCount) * 2 * Int64(bits == .eight ? 1 : 2)
        }

        /// The most bytes a header needs to be read.
        public static let maximumSize = 24
    }

    /// Reads the header from the first bytes of a `.dat` file (at least `BinaryHeader.maximumSize`
    /// of them, or the whole file if shorter).
    public static func binaryHeader(_ bytes: some RandomAccessCollection<UInt8>) throws(ReadError) -> BinaryHeader {
        let bytes = Array(bytes.prefix(BinaryHeader.maximumSize))
        func int32(at offset: Int) throws(ReadError) -> Int {
            guard offset + 4 <= bytes.count else { throw ReadError(description: "waveform data is truncated") }
            var word: UInt32 = 0
            for byte in 0 ..< 4 { word |= UInt32(bytes[offset + byte]) << UInt32(8 * byte) }
            return Int(Int32(bitPattern: word))
        }
        let version = try int32(at: 0)
        guard version == 1 || version == 2 else { throw ReadError(description: "unknown waveform data version \(version)") }
        let flags = try int32(at: 4)
        let header = BinaryHeader(version: version, bits: flags & 1 == 1 ? .eight : .sixteen, sampleRate: try int32(at: 8),
                                  samplesPerPixel: try int32(at: 12), length: try int32(at: 16),
                                  channelCount: version == 2 ? try int32(at: 20) : 1)
        guard header.sampleRate >= 1, header.samplesPerPixel >= 2, (1 ... maximumChannels).contains(header.channelCount),
              header.length >= 0 else {
            throw ReadError(description: "invalid waveform data header")
        }
        return header
    }

    /// The most channels a waveform file may hold (audiowaveform's own limit).
    public static let maximumChannels = 24

    /// Reads a `.dat` file's bytes back into peaks (values scaled back to -1...1). Trailing bytes
    /// after the data are ignored, as audiowaveform does.
    public static func peaks(fromBinary bytes: [UInt8]) throws(ReadError) -> Peaks {
        let header = try binaryHeader(bytes)
        guard Int64(bytes.count) >= header.fileSize else { throw ReadError(description: "waveform data is truncated") }
        let isEightBit = header.bits == .eight
        let valueSize = isEightBit ? 1 : 2
        let scale: Float = isEightBit ? 256.0 / 32767 : 1.0 / 32767
        var pairs = Array(repeating: [PeakPair](), count: header.channelCount)
        for channel in pairs.indices { pairs[channel].reserveCapacity(header.length) }
        var offset = header.size
        func next() -> Float {
            defer { offset += valueSize }
            if isEightBit { return Float(Int8(bitPattern: bytes[offset])) * scale }
            return Float(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) * scale
        }
        for _ in 0 ..< header.length {
            for channel in 0 ..< header.channelCount {
                let low = next()
                pairs[channel].append(PeakPair(min: low, max: next()))
            }
        }
        return Peaks(sampleRate: header.sampleRate, samplesPerPixel: header.samplesPerPixel,
                     channelCount: header.channelCount, pairs: pairs)
    }
}
