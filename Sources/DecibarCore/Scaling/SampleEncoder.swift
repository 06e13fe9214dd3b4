/// Turns samples (full scale ±1) into the little-endian bytes of a raw sample format: integers
/// rounded half to even (`SampleRounding`), 24-bit ones in the top of 32-bit words, or floats.
public struct SampleEncoder: Sendable {
    public let format: SampleFormat
    private var words16: [Int16] = []
    private var words32: [Int32] = []
    private var floats: [Float] = []

    public init(format: SampleFormat) {
        self.format = format
    }

    /// Bytes of each sample in the output.
    public var bytesPerSample: Int { format == .s16 ? 2 : 4 }

    /// Hands `body` the bytes for `samples`.
    public mutating func encode<Result>(_ samples: UnsafeBufferPointer<Double>, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        switch format {
        case .s16:
            words16.removeAll(keepingCapacity: true)
            for sample in samples { words16.append(Int16(SampleRounding.integer(sample, bits: 16)).littleEndian) }
            return words16.withUnsafeBytes(body)
        case .s24:
            words32.removeAll(keepingCapacity: true)
            for sample in samples { words32.append((Int32(SampleRounding.integer(sample, bits: 24)) << 8).littleEndian) }
            return words32.withUnsafeBytes(body)
        case .s32:
            words32.removeAll(keepingCapacity: true)
            for sample in samples { words32.append(Int32(SampleRounding.integer(sample, bits: 32)).littleEndian) }
            return words32.withUnsafeBytes(body)
        case .f32:
            floats.removeAll(keepingCapacity: true)
            for sample in samples { floats.append(Float(sample)) }
            return floats.withUnsafeBytes(body)
        }
    }
}
