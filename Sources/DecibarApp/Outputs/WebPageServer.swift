import DecibarCore
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization

/// The web page of `--send http://ADDRESS:PORT`, served by SwiftNIO on one event-loop thread:
/// `/` draws the bars as the window does, fed a frame a tick over the WebSocket `/ws`; `/levels`
/// streams JSON lines for scripts. Beyond loopback every request needs the token and a WebSocket's
/// Origin must be the page's own. At most 16 clients; one that does not read loses frames (a
/// frame is dropped while its socket's buffer is full), never the sender's time.
final class WebPageServer: Sendable {
    static let clientLimit = 16

    let target: OutputTarget
    private let group: MultiThreadedEventLoopGroup
    private let listener = Mutex<(any Channel)?>(nil)
    private let clients = Mutex<[ObjectIdentifier: Client]>([:])
    let sentFrames = Atomic<Int>(0)
    let droppedFrames = Atomic<Int>(0)

    /// A page's WebSocket (with the canvas size it draws on) or a `/levels` stream.
    struct Client: Sendable {
        enum Kind: Sendable { case page, lines }
        let channel: any Channel
        let kind: Kind
        var size = PixelSize(width: 1280, height: 720)
    }

    private init(target: OutputTarget) {
        self.target = target
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    }

    /// Listens at the target's address; nil (said in one line) when it cannot: a port in use, an
    /// address not of this machine.
    static func start(_ target: OutputTarget, notice: @Sendable (String) -> Void) -> WebPageServer? {
        let server = WebPageServer(target: target)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 12,
            shouldUpgrade: { channel, head in
                channel.eventLoop.makeSucceededFuture(server.admitsSocket(head) ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WebPageSocket(server: server))
                }
            })
        let bootstrap = ServerBootstrap(group: server.group)
            .serverChannelOption(.backlog, value: 32)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            // A client that stops reading holds a few frames, not seconds of them (a loopback
            // socket's buffer would grow to megabytes): it loses frames instead, and one that
            // reads again gets the newest at once.
            .childChannelOption(.socketOption(.so_sndbuf), value: 32 * 1024)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 8 * 1024, high: 32 * 1024))
            .childChannelInitializer { channel in
                // Once a request became a WebSocket, its HTTP handler leaves the pipeline.
                let upgraded: NIOHTTPServerUpgradeSendableConfiguration = (upgraders: [upgrader], completionHandler: { context in
                    _ = context.pipeline.removeHandler(name: WebPageConnection.name)
                })
                return channel.pipeline.configureHTTPServerPipeline(withServerUpgrade: upgraded).flatMap {
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(WebPageConnection(server: server), name: WebPageConnection.name)
                    }
                }
            }
        do {
            let channel = try bootstrap.bind(host: target.host ?? "127.0.0.1", port: target.port).wait()
            server.listener.withLock { $0 = channel }
            return server
        } catch {
            try? server.group.syncShutdownGracefully()
            // NIO's error names its syscall; the user needs only the reason ("Address already in use").
            let reason = (error as? IOError).map { Posix.Failure(code: $0.errnoCode).description } ?? "\(error)"
            notice("\(target.url): cannot serve the page there (\(reason)); nothing is served")
            return nil
        }
    }

    /// The page's address for messages: with the token when one is needed.
    var pageURL: String {
        let host = target.host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "127.0.0.1"
        return "http://\(host):\(target.port)/" + (target.token.map { "?token=\($0)" } ?? "")
    }

    // MARK: Who may come in

    /// The token a request must carry (nil on loopback).
    var requiredToken: String? { target.isLoopback ? nil : target.token }

    func hasToken(_ uri: String) -> Bool {
        guard let token = requiredToken else { return true }
        guard let query = uri.split(separator: "?", maxSplits: 1).dropFirst().first else { return false }
        return query.split(separator: "&").contains { $0 == "token=\(token)" }
    }

    /// A WebSocket to `/ws` with the token, from the page's own origin, while there is room.
    func admitsSocket(_ head: HTTPRequestHead) -> Bool {
        guard Self.path(of: head.uri) == "/ws", hasToken(head.uri), clients.withLock({ $0.count }) < Self.clientLimit else { return false }
        if requiredToken != nil {
            // Beyond loopback a page of another site must not read this one's stream.
            guard let origin = head.headers["Origin"].first, let host = head.headers["Host"].first,
                  origin == "http://\(host)" else { return false }
        }
        return true
    }

    static func path(of uri: String) -> String { String(uri.prefix { $0 != "?" }) }

    // MARK: Clients

    /// Counts a client in; false past the limit.
    func register(_ channel: any Channel, kind: Client.Kind) -> Bool {
        clients.withLock { clients in
            guard clients.count < Self.clientLimit else { return false }
            clients[ObjectIdentifier(channel)] = Client(channel: channel, kind: kind)
            return true
        }
    }

    func unregister(_ channel: any Channel) {
        _ = clients.withLock { $0.removeValue(forKey: ObjectIdentifier(channel)) }
    }

    func resize(_ channel: any Channel, to size: PixelSize) {
        clients.withLock { $0[ObjectIdentifier(channel)]?.size = size }
    }

    var clientCount: Int { clients.withLock { $0.count } }

    /// The canvas sizes pages draw on now (one frame is made for each).
    var pageSizes: [PixelSize] {
        var sizes: [PixelSize] = []
        for client in clients.withLock({ Array($0.values) }) where client.kind == .page && !sizes.contains(client.size) {
            sizes.append(client.size)
        }
        return sizes
    }

    /// Sends each page the frame for its size and each `/levels` reader the line (from the
    /// sending thread): a client whose socket is full loses this one.
    func broadcast(frames: [(size: PixelSize, text: String)], line: String) {
        for client in clients.withLock({ Array($0.values) }) {
            let channel = client.channel
            guard channel.isWritable else {
                droppedFrames.add(1, ordering: .relaxed)
                continue
            }
            switch client.kind {
            case .page:
                guard let text = frames.first(where: { $0.size == client.size })?.text else { continue }
                let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
                channel.writeAndFlush(frame, promise: nil)
            case .lines:
                channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(string: line))), promise: nil)
            }
            sentFrames.add(1, ordering: .relaxed)
        }
    }

    /// Closes every connection and the listening socket.
    func close() {
        if let channel = listener.withLock({ channel in defer { channel = nil }; return channel }) {
            try? channel.close().wait()
        }
        try? group.syncShutdownGracefully()
    }
}

/// One HTTP connection: the page, the `/levels` stream, or a one-line refusal.
private final class WebPageConnection: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "page"

    let server: WebPageServer
    private var streaming = false
    /// A WebSocket refused: answered from `errorCaught`, and its request comes on here after.
    private var refusedSocket = false

    init(server: WebPageServer) { self.server = server }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        // One answer per request: the refusal was the answer to this one.
        if refusedSocket {
            refusedSocket = false
            return
        }
        guard head.method == .GET || head.method == .HEAD else { respond(context, .methodNotAllowed, "only GET is served here\n"); return }
        guard server.hasToken(head.uri) else { respond(context, .forbidden, "this page needs its token: ?token=...\n"); return }
        switch WebPageServer.path(of: head.uri) {
        case "/", "/index.html":
            respond(context, .ok, WebPage.html, type: "text/html; charset=utf-8")
        case "/levels":
            guard server.register(context.channel, kind: .lines) else {
                respond(context, .serviceUnavailable, "too many clients (\(WebPageServer.clientLimit))\n")
                return
            }
            streaming = true
            var headers = HTTPHeaders()
            headers.add(name: "Content-Type", value: "application/x-ndjson")
            headers.add(name: "Cache-Control", value: "no-store")
            context.writeAndFlush(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))), promise: nil)
        case "/ws":
            respond(context, .badRequest, Self.socketRefusal)
        default:
            respond(context, .notFound, "not found: / is the page, /levels the JSON lines\n")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if streaming { server.unregister(context.channel) }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A WebSocket refused (`admitsSocket`) ends here, before its request is handed on (the
        // upgrade handler does both): say why in one line, then close.
        if error is NIOWebSocketUpgradeError {
            refusedSocket = true
            let channel = context.channel
            respond(context, .badRequest, Self.socketRefusal).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        context.close(promise: nil)
    }

    static let socketRefusal = "a WebSocket is taken at /ws from the page (with its token), while fewer than \(WebPageServer.clientLimit) clients are served\n"

    @discardableResult
    private func respond(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ body: String,
                         type: String = "text/plain; charset=utf-8") -> EventLoopFuture<Void> {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: String(body.utf8.count))
        headers.add(name: "Cache-Control", value: "no-store")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        return context.writeAndFlush(wrapOutboundOut(.end(nil)))
    }
}

/// A page's WebSocket: it says the size of its canvas (`size W H`), and gets frames.
private final class WebPageSocket: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let server: WebPageServer

    init(server: WebPageServer) { self.server = server }

    func handlerAdded(context: ChannelHandlerContext) {
        if !server.register(context.channel, kind: .page) { context.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var data = frame.unmaskedData
            let text = data.readString(length: data.readableBytes) ?? ""
            let parts = text.split(separator: " ")
            if parts.count == 3, parts[0] == "size", let width = Int(parts[1]), let height = Int(parts[2]),
               (16...8192).contains(width), (16...8192).contains(height) {
                server.resize(context.channel, to: PixelSize(width: width, height: height))
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            context.close(promise: nil)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        server.unregister(context.channel)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
