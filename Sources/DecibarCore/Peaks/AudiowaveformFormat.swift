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

    /// The interleaved data: for each index, min and max of channel 0, then of channel 1, ...
    public static func values(of peaks: Peaks, bits: Bits) -> [Int] {
        var values: [Int] = []
        values.reserveCapacity(peaks.length * peaks.channelCount * 2)
        for index in 0 ..< peaks.length {
            for channel in 0 ..< peaks.channelCount {
                let pair = peaks.pairs[channel][index]
                values.append(stored(pair.min, bits: bits))
                values.append(stored(pair.max, bits: bits))
            }
        }
        return values
    }

    /// The JSON text, keys in audiowaveform's order, no spaces.
    public static func json(_ peaks: Peaks, bits: Bits) -> String {
        let data = values(of: peaks, bits: bits).map(String.init).joined(separator: ",")
        return "{\"version\":2,\"channels\":\(peaks.channelCount),\"sample_rate\":\(peaks.sampleRate),"
            + "\"samples_per_pixel\":\(peaks.samplesPerPixel),\"bits\":\(bits.rawValue),"
            + "\"length\":\(peaks.length),\"data\":[\(data)]}"
    }

    /// The binary `.dat` bytes, little-endian.
    public static func binary(_ peaks: Peaks, bits: Bits) -> [UInt8] {
        var bytes: [UInt8] = []
        func append32(_ value: Int) {
            let word = UInt32(truncatingIfNeeded: value)
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt32(shift))) }
        }
        let version = peaks.channelCount == 1 ? 1 : 2
        append32(version)
        append32(bits == .eight ? 1 : 0)
        append32(peaks.sampleRate)
        append32(peaks.samplesPerPixel)
        append32(peaks.length)
        if version == 2 { append32(peaks.channelCount) }
        for value in values(of: peaks, bits: bits) {
            if bits == .eight {
                bytes.append(UInt8(bitPattern: Int8(value)))
            } else {
                let half = UInt16(bitPattern: Int16(value))
                bytes.append(UInt8(half & 0xFF))
                bytes.append(UInt8(half >> 8))
            }
        }
        return bytes
    }

    /// Reads a `.dat` file's bytes back into peaks (values scaled back to -1...1).
    public static func peaks(fromBinary bytes: [UInt8]) throws(ReadError) -> Peaks {
        func int32(at offset: Int) throws(ReadError) -> Int {
            guard offset + 4 <= bytes.count else { throw ReadError(description: "waveform data is truncated") }
            var word: UInt32 = 0
            for byte in 0 ..< 4 { word |= UInt32(bytes[offset + byte]) << UInt32(8 * byte) }
            return Int(Int32(bitPattern: word))
        }
        let version = try int32(at: 0)
        guard version == 1 || version == 2 else { throw ReadError(description: "unknown waveform data version \(version)") }
        let isEightBit = try int32(at: 4) & 1 == 1
        let sampleRate = try int32(at: 8)
        let samplesPerPixel = try int32(at: 12)
        let length = try int32(at: 16)
        let channels = version == 2 ? try int32(at: 20) : 1
        let headerSize = version == 2 ? 24 : 20
        guard sampleRate >= 1, samplesPerPixel >= 2, (1...24).contains(channels), length >= 0 else {
            throw ReadError(description: "invalid waveform data header")
        }
        let valueSize = isEightBit ? 1 : 2
        guard bytes.count >= headerSize + length * channels * 2 * valueSize else {
            throw ReadError(description: "waveform data is truncated")
        }
        let scale: Float = isEightBit ? 256.0 / 32767 : 1.0 / 32767
        var pairs = Array(repeating: [PeakPair](), count: channels)
        var offset = headerSize
        func next() -> Float {
            defer { offset += valueSize }
            if isEightBit { return Float(Int8(bitPattern: bytes[offset])) * scale }
            return Float(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) * scale
        }
        for _ in 0 ..< length {
            for channel in 0 ..< channels {
                let low = next()
                pairs[channel].append(PeakPair(min: low, max: next()))
            }
        }
        return Peaks(sampleRate: sampleRate, samplesPerPixel: samplesPerPixel, channelCount: channels, pairs: pairs)
    }
}
