import FoundationEssentials

/// A JSON value as the control socket and the config file carry it: strict JSON in, and always
/// valid UTF-8 JSON out (not-finite numbers go out as null, which JSON has no other way to say).
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The deepest nesting a value may have. Requests need three or four levels; the decoder's
    /// cost grows with the square of the depth (each failed guess of a value's kind records its
    /// whole coding path), so a line of a few hundred `[` would cost a second.
    public static let maximumDepth = 32

    /// Parses one JSON text; nil when it is not strict JSON (or not UTF-8), or nests too deep.
    public init?(parsing bytes: some Collection<UInt8>) {
        guard Self.nestingDepth(of: bytes) <= Self.maximumDepth,
              let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return nil }
        self = value
    }

    /// The deepest nesting of arrays and objects in JSON text, outside strings.
    static func nestingDepth(of bytes: some Collection<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = Swift.max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The value as compact JSON text (object keys sorted, so the same value reads the same).
    public var text: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the compact JSON text of the value.
    public func append(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.append(number: value, to: &bytes)
        case .string(let value): Self.append(string: value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.append(string: key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                members[key]!.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers without a fraction (`7`, not `7.0`); not finite: `null`.
    static func append(number: Double, to bytes: inout [UInt8]) {
        guard number.isFinite else { bytes.append(contentsOf: "null".utf8); return }
        if number == number.rounded(), Swift.abs(number) < 9e15 {
            DecimalText.append(integer: Int(number), to: &bytes)
        } else {
            bytes.append(contentsOf: "\(number)".utf8)
        }
    }

    /// A JSON string: quotes, backslashes and control characters escaped; the rest as UTF-8.
    public static func append(string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: "\\t".utf8)
            case 0 ..< 0x20, 0x7F:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: "\\u00".utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 15)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}

extension JSONValue {
    /// The string, or nil.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The number, or nil.
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    /// A short name of the kind of value, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
