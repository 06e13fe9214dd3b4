import Foundation
import Glibc

/// A UDP socket on 127.0.0.1 (an ephemeral port) that keeps every datagram with the moment it
/// arrived on CLOCK_MONOTONIC, the clock Decibar stamps audio with: a real receiver of what
/// `--send` sends, for the tests.
public final class DatagramReceiver: @unchecked Sendable {  // Unchecked: `datagrams` and `running` are touched under `lock` only.
    public typealias Datagram = (time: Double, bytes: [UInt8])

    public let port: Int
    private let fd: Int32
    private let lock = NSLock()
    private var datagrams: [Datagram] = []
    private var running = true

    public init() throws {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while lock.withLock({ running }) {
                let count = recv(fd, &buffer, buffer.count, 0)
                guard count > 0 else { continue }
                let now = Self.now()
                lock.withLock { datagrams.append((now, Array(buffer[0 ..< count]))) }
            }
        }
        thread.start()
    }

    /// Seconds on CLOCK_MONOTONIC.
    public static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// What arrived so far.
    public var received: [Datagram] { lock.withLock { datagrams } }

    /// Stops receiving and closes the socket.
    public func stop() {
        guard lock.withLock({ defer { running = false }; return running }) else { return }
        usleep(200_000)
        close(fd)
    }

    /// A little-endian f32 at `offset` (WLED's fields).
    public static func littleEndianFloat(_ bytes: [UInt8], at offset: Int) -> Float {
        Float(bitPattern: (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * UInt32($1)) })
    }
}
