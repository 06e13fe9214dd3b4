/// One request line: `{"command": ["seek", 90, "absolute"], "request_id": 7}`.
public struct ControlRequest: Sendable, Equatable {
    /// Echoed in the reply; 0 when the client gave none (as mpv does).
    public var id: Int64
    public var command: ControlCommand

    public init(id: Int64 = 0, command: ControlCommand) {
        self.id = id
        self.command = command
    }

    /// What a line holds: a request, nothing to answer (blank, or a `#` comment), or a failure to
    /// answer with (carrying the request id when one could be read).
    public enum Parsed: Sendable, Equatable {
        case request(ControlRequest)
        case ignored
        case failure(ControlFailure, id: Int64)
    }

    /// Reads one line (without its newline).
    public static func parse(_ line: some Collection<UInt8>) -> Parsed {
        let trimmed = line.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if trimmed.isEmpty || trimmed.first == UInt8(ascii: "#") { return .ignored }
        guard let value = JSONValue(parsing: line) else {
            return .failure(ControlFailure(.invalidParameter, "not a JSON object (one per line, UTF-8)"), id: 0)
        }
        guard case .object(let members) = value else {
            return .failure(ControlFailure(.invalidParameter, "a request is a JSON object with a \"command\" array"), id: 0)
        }
        var id: Int64 = 0
        if let given = members["request_id"] {
            guard let number = given.number, number == number.rounded(), Swift.abs(number) <= 9_007_199_254_740_992 else {
                return .failure(ControlFailure(.invalidParameter, "request_id must be a whole number"), id: 0)
            }
            id = Int64(number)
        }
        guard case .array(let arguments)? = members["command"] else {
            return .failure(ControlFailure(.invalidParameter, "a request needs a \"command\" array, such as [\"get_status\"]"), id: id)
        }
        do {
            return .request(ControlRequest(id: id, command: try ControlCommand(arguments: arguments)))
        } catch {
            return .failure(error, id: id)
        }
    }
}
