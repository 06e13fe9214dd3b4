import DecibarAudio
import DecibarCore
import Foundation
import Glibc
import Logging
import NIOCore
import NIOPosix
import Synchronization

/// What the daemon does with requests and departures; called on the server's event loop, so it
/// must hand the work on quickly.
protocol ControlRequestHandler: Sendable {
    func handle(_ request: ControlRequest, from client: ControlClientHandle)
    /// A reply made on the event loop (a line that is no request), sent in turn with the others.
    func answer(_ reply: [UInt8], to client: ControlClientHandle)
    func clientLeft(_ client: ControlClientHandle)
}

/// The daemon's control socket: a Unix stream socket (never TCP) that only the daemon's user can
/// reach: in a 0700 folder, created 0600, and each peer's uid checked (SO_PEERCRED). One event-loop
/// thread serves every client.
final class ControlServer: Sendable {
    static let clientLimit = 64

    let path: String
    let handler: any ControlRequestHandler
    let log: Logger
    private let group: MultiThreadedEventLoopGroup
    private let listener = Mutex<(any Channel)?>(nil)
    private let clients = Mutex<(count: Int, nextID: Int)>((0, 1))

    private init(path: String, handler: any ControlRequestHandler, log: Logger) {
        self.path = path
        self.handler = handler
        self.log = log
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Binds the socket at `path`. A socket nobody answers on (left by a crash) is replaced; one a
    /// daemon answers on is not: that is `AlreadyRunning`.
    static func start(path: String, handler: any ControlRequestHandler, log: Logger) throws(CommandFailure) -> ControlServer {
        try ControlSocketPath.prepareFolder(of: path)
        switch ControlSocketPath.probe(path) {
        case .answered(let pid):
            let who = pid.map { "pid \($0)" } ?? "another process"
            throw CommandFailure(message: "a decibar daemon is already running (\(who)) at \(path)")
        case .stale:
            log.notice("removing the stale socket \(path) (nothing listens on it)")
            unlink(path)
        case .absent:
            break
        case .notASocket:
            throw CommandFailure(message: "\(path) exists and is not a socket; remove it or give --socket another path")
        }
        let server = ControlServer(path: path, handler: handler, log: log)
        let bootstrap = ServerBootstrap(group: server.group)
            .serverChannelOption(.backlog, value: 64)
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ControlConnection(server: server))
                }
            }
        // Created 0600 whatever the caller's umask: the umask applies as bind makes the file.
        do {
            let channel = try FileModeMask.with(0o177) {
                try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).wait()
            }
            server.listener.withLock { $0 = channel }
        } catch {
            try? server.group.syncShutdownGracefully()
            throw CommandFailure(message: "cannot listen on \(path): \(error)")
        }
        return server
    }

    /// Counts a new client; nil past the limit.
    func register(_ connection: NIOLoopBound<ControlConnection>) -> ControlClientHandle? {
        let id: Int? = clients.withLock { clients in
            guard clients.count < Self.clientLimit else { return nil }
            clients.count += 1
            clients.nextID += 1
            return clients.nextID - 1
        }
        return id.map { ControlClientHandle(id: $0, connection: connection) }
    }

    func unregister(_ client: ControlClientHandle) {
        clients.withLock { $0.count -= 1 }
        handler.clientLeft(client)
    }

    var clientCount: Int { clients.withLock { $0.count } }

    /// Closes the socket and every connection, and removes the socket file.
    func close() {
        if let channel = listener.withLock({ channel in defer { channel = nil }; return channel }) {
            try? channel.close().wait()
            unlink(path)
        }
        try? group.syncShutdownGracefully()
    }
}
