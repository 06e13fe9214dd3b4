/// One WLED Audio Sync V2 datagram: what WLED's audioreactive usermod takes from another device
/// instead of its own microphone. Exactly 44 bytes, little-endian (the receiver ignores any other
/// size): the header `"00002\0"`, 2 zero bytes, `sampleRaw` and `sampleSmth` (f32, 0...255),
/// `samplePeak` (u8, 1 on a hit), a frame counter (u8), `fftResult[16]` (u8, 0...255), 2 zero
/// bytes, `FFT_Magnitude` and `FFT_MajorPeak` (f32, Hz).
public struct AudioSyncPacket: Sendable, Equatable {
    public static let size = 44
    public static let channelCount = 16
    /// WLED's 16 GEQ channels, Hz: 43–86, 86–129, … 7106–9259 (the bins of its 512-point FFT at 22 050 Hz).
    public static let channelEdges: [Double] = [43, 86, 129, 216, 301, 430, 560, 818, 1120, 1421, 1895, 2412, 3015, 3704, 4479, 7106, 9259]

    public var sampleRaw: Float = 0
    public var sampleSmooth: Float = 0
    public var isPeak = false
    /// Counts packets (wrapping): receivers that check order drop a datagram older than the last.
    public var counter: UInt8 = 0
    public var channels: [UInt8] = Array(repeating: 0, count: channelCount)
    public var magnitude: Float = 0
    public var majorPeak: Float = 0

    public init() {}

    /// Writes the datagram into `bytes` (44 of them, reused).
    public func encode(into bytes: inout [UInt8]) {
        if bytes.count != Self.size { bytes = Array(repeating: 0, count: Self.size) }
        bytes.withUnsafeMutableBufferPointer { out in
            for (index, byte) in Self.header.enumerated() { out[index] = byte }
            out[6] = 0
            out[7] = 0
            func put(_ value: Float, at offset: Int) {
                let bits = value.bitPattern
                for shift in 0 ..< 4 { out[offset + shift] = UInt8(truncatingIfNeeded: bits >> (8 * UInt32(shift))) }
            }
            put(sampleRaw, at: 8)
            put(sampleSmooth, at: 12)
            out[16] = isPeak ? 1 : 0
            out[17] = counter
            for index in 0 ..< Self.channelCount { out[18 + index] = channels[index] }
            out[34] = 0
            out[35] = 0
            put(magnitude, at: 36)
            put(majorPeak, at: 40)
        }
    }

    static let header: [UInt8] = Array("00002".utf8) + [0]
}
