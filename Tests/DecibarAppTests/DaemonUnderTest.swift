import DecibarCore
import Foundation
import Synchronization
@testable import DecibarApp

/// A daemon in this process, with its config file in a folder of its own and no socket, window or
/// tap: commands go straight to it, and replies come back to an in-process client.
final class DaemonUnderTest {
    let folder: TemporaryFolder
    let configPath: String
    let daemon: Daemon
    let client: ControlClientHandle
    private let received = Received()

    /// What the client was sent, shared with the daemon's side.
    final class Received: Sendable {
        let lines = Mutex<[(line: [UInt8], droppable: Bool, answersRequest: Bool)]>([])
    }

    init(config: String = "", overrides: Configuration = Configuration()) throws {
        folder = try TemporaryFolder()
        configPath = try folder.write("config.toml", config)
        var settings = DaemonSettings(socketPath: folder.path + "/control.sock", configPath: configPath)
        settings.overrides = overrides
        daemon = try Daemon(settings: settings)
        try daemon.loadConfiguration()
        let received = self.received
        client = ControlClientHandle(id: 1) { line, droppable, answersRequest in
            received.lines.withLock { $0.append((line, droppable, answersRequest)) }
        }
    }

    /// Carries out one command as the inbox would; its reply's data, or the failure.
    func execute(_ command: ControlCommand) throws(ControlFailure) -> JSONValue? {
        try daemon.execute(command, from: client)
    }

    /// Posts a request line to the inbox, handles it, and returns the reply as JSON.
    func request(_ line: String) throws -> [String: JSONValue] {
        guard case .request(let request) = ControlRequest.parse(Array(line.utf8)) else { throw ControlFailure(.invalidParameter, "not a request: \(line)") }
        daemon.inbox.post(.request(request, client))
        daemon.handleInbox()
        guard let reply = takeLines().last(where: \.answersRequest),
              case .object(let members)? = JSONValue(parsing: reply.line.filter { $0 != 0x0A }) else { return [:] }
        return members
    }

    /// What the client was sent since the last call.
    func takeLines() -> [(line: [UInt8], droppable: Bool, answersRequest: Bool)] {
        received.lines.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

    /// The events sent since the last call, by name.
    func takeEvents() -> [(name: String, members: [String: JSONValue])] {
        takeLines().compactMap { line in
            guard !line.answersRequest, case .object(let members)? = JSONValue(parsing: line.line.filter { $0 != 0x0A }),
                  let name = members["event"]?.string else { return nil }
            return (name, members)
        }
    }

    /// Rewrites the config file.
    func rewriteConfig(_ text: String) throws { try folder.write("config.toml", text) }
}

extension JSONValue {
    /// The members of an object.
    var object: [String: JSONValue]? { if case .object(let members) = self { members } else { nil } }
}
