import NIOCore

/// One connected control client, as the rest of the daemon sees it: something to send lines to,
/// from any thread. The lines are queued on the client's connection (see `ControlConnection`).
final class ControlClientHandle: Sendable, Hashable {
    let id: Int
    private let connection: NIOLoopBound<ControlConnection>

    init(id: Int, connection: NIOLoopBound<ControlConnection>) {
        self.id = id
        self.connection = connection
    }

    /// Sends an event: `droppable` ones are lost first when the client does not read.
    func send(_ line: [UInt8], droppable: Bool) {
        let connection = self.connection
        connection.eventLoop.execute { connection.value.enqueue(line, droppable: droppable) }
    }

    /// Sends the reply to one request (never dropped).
    func reply(_ line: [UInt8]) {
        let connection = self.connection
        connection.eventLoop.execute { connection.value.enqueue(line, droppable: false, answersRequest: true) }
    }

    static func == (lhs: ControlClientHandle, rhs: ControlClientHandle) -> Bool { lhs.id == rhs.id }
    func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
