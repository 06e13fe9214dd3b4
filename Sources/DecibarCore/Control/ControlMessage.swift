/// The lines the daemon sends: replies to requests and events, each one JSON object and a newline.
public enum ControlMessage {
    /// `{"data":...,"error":"success","request_id":7}`.
    public static func success(id: Int64, data: JSONValue? = nil) -> [UInt8] {
        var members: [String: JSONValue] = ["request_id": .number(Double(id)), "error": .string("success")]
        if let data { members["data"] = data }
        return line(.object(members))
    }

    /// `{"error":"invalid parameter","message":"...","request_id":7}`: no data, as mpv.
    public static func failure(id: Int64, _ failure: ControlFailure) -> [UInt8] {
        line(.object(["request_id": .number(Double(id)), "error": .string(failure.code.rawValue),
                      "message": .string(failure.message)]))
    }

    /// `{"event":"name",...}`.
    public static func event(_ name: String, _ members: [String: JSONValue] = [:]) -> [UInt8] {
        var members = members
        members["event"] = .string(name)
        return line(.object(members))
    }

    /// `{"event":"levels","data":LINE}` where LINE is exactly what `decibar levels` prints (given
    /// with its newline): the client prints `data` as it came.
    public static func event(_ name: String, line text: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count + 32)
        bytes.append(contentsOf: "{\"event\":".utf8)
        JSONValue.append(string: name, to: &bytes)
        bytes.append(contentsOf: ",\"data\":".utf8)
        bytes.append(contentsOf: text.last == UInt8(ascii: "\n") ? text.dropLast() : text[...])
        bytes.append(contentsOf: "}\n".utf8)
        return bytes
    }

    /// The `data` of an event made by `event(_:line:)`, as the standalone line (with a newline);
    /// nil for any other line.
    public static func lineData(of message: [UInt8], event name: String) -> [UInt8]? {
        var prefix: [UInt8] = Array("{\"event\":".utf8)
        JSONValue.append(string: name, to: &prefix)
        prefix.append(contentsOf: ",\"data\":".utf8)
        guard message.count > prefix.count + 1, message.starts(with: prefix), message.last == UInt8(ascii: "}") else { return nil }
        var line = Array(message[prefix.count ..< message.count - 1])
        line.append(UInt8(ascii: "\n"))
        return line
    }

    private static func line(_ value: JSONValue) -> [UInt8] {
        var bytes: [UInt8] = []
        value.append(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }
}
