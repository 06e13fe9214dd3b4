import DecibarCore
import Glibc
import NIOCore

/// One client's connection, on the server's event loop: cuts what it sends into lines, answers
/// what is wrong with a line at once, hands requests on, and keeps a bounded queue of what goes
/// out. A client that does not read loses its oldest events (never a reply, and never delaying
/// anyone else); one that lets a megabyte of replies pile up is disconnected.
final class ControlConnection: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Events held for a client that is not reading, beyond what the socket holds.
    static let queuedEventLimit = 256
    /// Replies held for a client that is not reading before it is disconnected.
    static let queuedReplyByteLimit = 1 << 20

    private let server: ControlServer
    private var splitter = ControlLineSplitter()
    private var context: ChannelHandlerContext?
    private(set) var client: ControlClientHandle?
    private var queue: [(line: [UInt8], droppable: Bool)] = []
    private var queueStart = 0
    private var queuedEvents = 0
    private var queuedReplyBytes = 0
    private var droppedEvents = 0
    /// Requests handed on and not yet answered; a client that closed its side is disconnected once
    /// every one is answered (so `echo ... | socat` gets its replies).
    private var unanswered = 0
    private var inputClosed = false

    init(server: ControlServer) {
        self.server = server
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        // Who is at the other end: only the daemon's own user may control it.
        guard let provider = channel as? SocketOptionProvider else { context.close(promise: nil); return }
        let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET), name: NIOBSDSocket.Option(rawValue: SO_PEERCRED))
        let loopBound = NIOLoopBound(self, eventLoop: context.eventLoop)
        credentials.whenComplete { result in
            let connection = loopBound.value
            switch result {
            case .success(let peer) where peer.uid == getuid():
                connection.admit()
            case .success(let peer):
                connection.refuse("permission denied: the daemon runs as uid \(getuid()), this client as uid \(peer.uid)",
                                  log: "refused a client running as uid \(peer.uid) (pid \(peer.pid))")
            case .failure(let error):
                connection.refuse("permission denied: cannot tell who the client is", log: "cannot read a client's credentials: \(error)")
            }
        }
    }

    private func admit() {
        guard let context else { return }
        guard let client = server.register(NIOLoopBound(self, eventLoop: context.eventLoop)) else {
            refuse("too many clients (at most \(ControlServer.clientLimit))", log: "refused a client: \(ControlServer.clientLimit) are connected")
            return
        }
        self.client = client
        // What arrived before the check is handled now.
        let early = beforeAdmission
        beforeAdmission = []
        early.withUnsafeBytes { process($0) }
    }

    /// Bytes that arrived before the client's credentials were checked (at most one line's worth).
    private var beforeAdmission: [UInt8] = []

    private func refuse(_ reason: String, log: String) {
        server.log.warning("\(log)")
        guard let context else { return }
        let line = ControlMessage.failure(id: 0, ControlFailure(.commandFailed, reason))
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(channel.allocator.buffer(bytes: line))).whenComplete { _ in
            channel.close(promise: nil)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { bytes in
            if client == nil {
                beforeAdmission.append(contentsOf: bytes.prefix(max(0, ControlLineSplitter.maximumLineLength - beforeAdmission.count)))
            } else {
                process(bytes)
            }
        }
    }

    private func process(_ bytes: UnsafeRawBufferPointer) {
        guard let client else { return }
        splitter.append(bytes) { piece in
                switch piece {
                case .tooLong:
                    // Answered in turn with the requests before it, through the daemon.
                    unanswered += 1
                    server.handler.answer(ControlMessage.failure(id: 0, ControlFailure(.lineTooLong, "a line may hold at most 64 KiB; the rest of it is discarded")), to: client)
                case .line(let line):
                    switch ControlRequest.parse(line) {
                    case .ignored: break
                    case .failure(let failure, let id):
                        unanswered += 1
                        server.handler.answer(ControlMessage.failure(id: id, failure), to: client)
                    case .request(let request):
                        unanswered += 1
                        server.handler.handle(request, from: client)
                    }
                }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let client { server.unregister(client) }
        client = nil
        queue = []
        self.context = nil
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case ChannelEvent.inputClosed = event {
            inputClosed = true
            closeIfDone()
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func closeIfDone() {
        guard inputClosed, unanswered == 0, queueStart == queue.count, let context else { return }
        context.close(promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        drain()
    }

    /// Queues a line and sends what the socket takes.
    func enqueue(_ line: [UInt8], droppable: Bool, answersRequest: Bool = false) {
        guard context != nil else { return }
        if answersRequest { unanswered -= 1 }
        queue.append((line, droppable))
        if droppable { queuedEvents += 1 } else { queuedReplyBytes += line.count }
        // The oldest events go first; replies are kept.
        while queuedEvents > Self.queuedEventLimit, let index = queue[queueStart...].firstIndex(where: \.droppable) {
            queue[index].line = []
            queue[index].droppable = false
            queuedEvents -= 1
            droppedEvents += 1
        }
        if queuedReplyBytes > Self.queuedReplyByteLimit {
            server.log.warning("disconnected a client that does not read its replies")
            context?.close(promise: nil)
            return
        }
        drain()
    }

    private func drain() {
        guard let context else { return }
        var wrote = false
        while queueStart < queue.count && context.channel.isWritable {
            let item = queue[queueStart]
            queueStart += 1
            if item.droppable { queuedEvents -= 1 } else { queuedReplyBytes -= item.line.count }
            guard !item.line.isEmpty else { continue }
            if droppedEvents > 0 {
                // Said once the client reads again, as mpv's event-queue-overflow.
                let notice = ControlMessage.event("events-dropped", ["count": .number(Double(droppedEvents))])
                droppedEvents = 0
                context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: notice)), promise: nil)
            }
            context.write(wrapOutboundOut(context.channel.allocator.buffer(bytes: item.line)), promise: nil)
            wrote = true
        }
        if queueStart == queue.count {
            queue.removeAll(keepingCapacity: queue.count < 1024)
            queueStart = 0
        } else if queueStart > 4096 {
            queue.removeFirst(queueStart)
            queueStart = 0
        }
        if wrote { context.flush() }
        closeIfDone()
    }
}

/// `struct ucred` as SO_PEERCRED fills it in: three 32-bit fields.
struct PeerCredentials: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
