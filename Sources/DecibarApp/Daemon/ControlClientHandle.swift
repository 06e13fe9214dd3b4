import NIOCore

/// One connected control client, as the rest of the daemon sees it: something to send lines to,
/// from any thread. The lines are queued on the client's connection (see `ControlConnection`).
final class ControlClientHandle: Sendable, Hashable {
    let id: Int
    /// Queues a line for the client: (line, droppable, answers a request).
    private let deliver: @Sendable ([UInt8], Bool, Bool) -> Void

    init(id: Int, connection: NIOLoopBound<ControlConnection>) {
        self.id = id
        deliver = { line, droppable, answersRequest in
            connection.eventLoop.execute { connection.value.enqueue(line, droppable: droppable, answersRequest: answersRequest) }
        }
    }

    /// A client inside the process, without a socket: its lines go to `deliver` as they are sent
    /// (how the daemon's commands are tested in-process).
    init(id: Int, deliver: @escaping @Sendable (_ line: [UInt8], _ droppable: Bool, _ answersRequest: Bool) -> Void) {
        self.id = id
        self.deliver = deliver
    }

    /// Sends an event: `droppable` ones are lost first when the client does not read.
    func send(_ line: [UInt8], droppable: Bool) { deliver(line, droppable, false) }

    /// Sends the reply to one request (never dropped).
    func reply(_ line: [UInt8]) { deliver(line, false, true) }

    static func == (lhs: ControlClientHandle, rhs: ControlClientHandle) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
