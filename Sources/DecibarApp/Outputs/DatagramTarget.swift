import DecibarCore
import Foundation
import Synchronization

/// Where an output's datagrams go: the host is looked up once on a thread of its own (a resolver
/// may take seconds), then every datagram is sent without waiting. Until the lookup is done,
/// datagrams are dropped; a host that cannot be found is said once and nothing is sent.
/// Failures to send (an unreachable network, a full socket buffer) drop the datagram, and are
/// said once each time they start and once when sending works again.
final class DatagramTarget: Sendable {
    private enum State {
        case resolving
        case ready(fd: Int32, address: Posix.SocketAddress)
        case failed
    }

    let name: String
    private let state = Mutex<State>(.resolving)
    private let failing = Atomic<Bool>(false)
    let sent = Atomic<Int>(0)
    let dropped = Atomic<Int>(0)
    private let notice: @Sendable (String) -> Void

    /// - Parameters:
    ///   - name: the output's URL, for messages.
    ///   - notice: says one line (from any thread).
    init(name: String, host: String, port: Int, notice: @escaping @Sendable (String) -> Void) {
        self.name = name
        self.notice = notice
        let thread = Thread { [self] in
            do {
                let address = try Posix.resolveDatagramAddress(host: host, port: port)
                let fd = try Posix.datagramSocket(family: address.family)
                state.withLock { $0 = .ready(fd: fd, address: address) }
            } catch let failure as Posix.LookupFailure {
                state.withLock { $0 = .failed }
                notice("\(name): cannot find \(host) (\(failure.description)); nothing is sent there")
            } catch {
                state.withLock { $0 = .failed }
                notice("\(name): cannot open a socket (\(error)); nothing is sent there")
            }
        }
        thread.name = "decibar-resolve"
        thread.start()
    }

    deinit {
        if case .ready(let fd, _) = state.withLock({ $0 }) { Posix.close(fd) }
    }

    /// The address once found, as `127.0.0.1:11988`.
    var address: String? {
        if case .ready(_, let address) = state.withLock({ $0 }) { return address.description }
        return nil
    }

    /// Sends one datagram, or drops it (counted) when it cannot go now.
    func send(_ bytes: [UInt8]) {
        guard case .ready(let fd, let address) = state.withLock({ $0 }) else {
            dropped.add(1, ordering: .relaxed)
            return
        }
        let failure = bytes.withUnsafeBytes { raw -> Posix.Failure? in
            do {
                try Posix.sendDatagram(fd, raw, to: address)
                return nil
            } catch let error as Posix.Failure {
                return error
            } catch {
                return Posix.Failure(code: EIO)
            }
        }
        guard let failure else {
            sent.add(1, ordering: .relaxed)
            if failing.exchange(false, ordering: .relaxed) { notice("\(name): sending again") }
            return
        }
        dropped.add(1, ordering: .relaxed)
        // A full socket buffer is the receiver's or the network's pace, not a fault to report.
        if failure.code != EAGAIN && failure.code != EWOULDBLOCK && !failing.exchange(true, ordering: .relaxed) {
            notice("\(name): cannot send to \(address) (\(failure)); trying on")
        }
    }
}
