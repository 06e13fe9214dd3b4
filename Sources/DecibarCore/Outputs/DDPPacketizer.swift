/// Frames of RGB pixels as DDP datagrams (the Distributed Display Protocol, 3waylabs.com/ddp, which
/// WLED, xLights and Falcon controllers take natively): a 10-byte header, then at most 480 pixels
/// (1440 bytes) a packet; the last packet of a frame carries the push flag, so the controller
/// shows the frame whole.
public struct DDPPacketizer: Sendable {
    public static let headerSize = 10
    public static let pixelsPerPacket = 480
    /// Version 1 in the top bits of the first byte; push shows what has arrived.
    static let versionFlag: UInt8 = 0x40
    static let pushFlag: UInt8 = 0x01
    /// RGB, 8 bits an element (type 001, size 011).
    static let rgb8Type: UInt8 = 0x0B
    /// The default output device.
    static let displayID: UInt8 = 1

    public let pixelCount: Int
    /// Every packet of a frame, made once; `frame` rewrites them in place.
    public private(set) var packets: [[UInt8]]
    private var sequence: UInt8 = 0

    public init(pixelCount: Int) {
        self.pixelCount = pixelCount
        let count = (pixelCount + Self.pixelsPerPacket - 1) / Self.pixelsPerPacket
        packets = (0 ..< count).map { index in
            let first = index * Self.pixelsPerPacket
            let bytes = Swift.min(Self.pixelsPerPacket, pixelCount - first) * 3
            var packet = [UInt8](repeating: 0, count: Self.headerSize + bytes)
            packet[0] = Self.versionFlag | (index == count - 1 ? Self.pushFlag : 0)
            packet[2] = Self.rgb8Type
            packet[3] = Self.displayID
            // Offset (bytes, big-endian u32) and length (bytes, big-endian u16).
            let offset = UInt32(first * 3)
            for shift in 0 ..< 4 { packet[4 + shift] = UInt8(truncatingIfNeeded: offset >> (24 - 8 * UInt32(shift))) }
            packet[8] = UInt8(bytes >> 8)
            packet[9] = UInt8(bytes & 0xFF)
            return packet
        }
    }

    /// Writes `rgb` (3 bytes a pixel, `pixelCount` pixels) into the packets, with the frame's
    /// sequence number (1 to 15, then 1 again: 0 would mean "not used").
    public mutating func frame(_ rgb: [UInt8]) {
        precondition(rgb.count == pixelCount * 3, "one RGB triple a pixel")
        sequence = sequence % 15 + 1
        for index in packets.indices {
            let start = index * Self.pixelsPerPacket * 3
            let count = packets[index].count - Self.headerSize
            packets[index][1] = sequence
            packets[index].withUnsafeMutableBufferPointer { packet in
                rgb.withUnsafeBufferPointer { rgb in
                    for byte in 0 ..< count { packet[Self.headerSize + byte] = rgb[start + byte] }
                }
            }
        }
    }
}
