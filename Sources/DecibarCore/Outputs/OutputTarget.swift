/// Where `--send URL` (and `outputs.send`) sends the analysis: an LED controller over WLED's audio
/// sync or DDP, lighting or VJ software over OSC, or a web page served from here.
///
///     wled://                       WLED Audio Sync V2, multicast 239.0.0.1:11988
///     wled://HOST[:PORT]            the same to one controller
///     ddp://HOST[:PORT]?pixels=N    the bars on N RGB pixels (port 4048)
///     osc://HOST:PORT[?prefix=/p]   OSC messages under the prefix (/decibar)
///     http://ADDRESS:PORT[?token=T] the web page; a token is needed beyond loopback
///
/// Every kind takes `offset=MS` (-1000 to 1000): sent that much later than the audio is heard
/// (earlier if negative), for a controller's own delay. Queries join with `&`.
public struct OutputTarget: Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, CaseIterable {
        case wled, ddp, osc, http
    }

    public var kind: Kind
    /// A name or address as given (brackets removed from IPv6); nil for WLED's multicast group.
    public var host: String?
    public var port: Int
    /// Seconds on top of when the audio is heard.
    public var offset: Double
    /// DDP: how many RGB pixels the strip has.
    public var pixels: Int
    /// OSC: the address prefix (`/decibar`).
    public var prefix: String
    /// The web page: the token a non-loopback page needs.
    public var token: String?
    /// The URL as given, for messages and `ctl status`.
    public let url: String

    public static let wledGroup = "239.0.0.1"
    public static let wledPort = 11988
    public static let ddpPort = 4048
    public static let defaultPrefix = "/decibar"
    public static let offsets = -1000.0...1000.0
    public static let pixelCounts = 1...16384
    /// What the help and messages show.
    public static let forms = "wled://[HOST[:PORT]], ddp://HOST[:PORT]?pixels=N, osc://HOST:PORT or http://ADDRESS:PORT"

    public var description: String { url }

    /// The page's address is loopback (127.0.0.0/8, ::1 or localhost): no token is needed there.
    public var isLoopback: Bool { host.map(Self.isLoopback) ?? false }

    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Reads a URL; the error says what is wrong in one sentence that quotes it.
    public init(url text: String) throws(ConfigFailure) {
        url = text
        func fail(_ why: String) -> ConfigFailure { ConfigFailure("\(text): \(why)") }
        guard let schemeEnd = text.firstRange(of: "://") else { throw fail("an output is \(Self.forms)") }
        guard let kind = Kind(rawValue: text[..<schemeEnd.lowerBound].lowercased()) else {
            throw fail("unknown kind of output \"\(text[..<schemeEnd.lowerBound])\"; use \(Self.forms)")
        }
        self.kind = kind
        var rest = Substring(text[schemeEnd.upperBound...])
        var query: Substring = ""
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        // A trailing slash (http://host:port/) is the page's own path.
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.contains("/"), !rest.contains("@"), !text.contains(where: { $0.isWhitespace || $0 == "\0" }) else {
            throw fail("an output is \(Self.forms) (no path, user or spaces)")
        }

        // Host and port: `[v6]:port`, `name:port`, `name`.
        var hostText: Substring = rest
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 address needs its closing ]") }
            hostText = rest[rest.index(after: rest.startIndex) ..< close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw fail("only :PORT may follow an IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.firstIndex(of: ":") {
            hostText = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
            guard !portText!.contains(":") else { throw fail("write an IPv6 address in brackets: [::1]:9000") }
        }
        host = hostText.isEmpty ? nil : String(hostText)
        if let portText {
            guard let port = Int(portText), (1...65535).contains(port) else { throw fail("the port must be 1 to 65535") }
            self.port = port
        } else {
            switch kind {
            case .wled: port = Self.wledPort
            case .ddp: port = Self.ddpPort
            case .osc: throw fail("OSC needs a port: osc://HOST:PORT")
            case .http: throw fail("the web page needs a port: http://ADDRESS:PORT")
            }
        }
        if host == nil && kind != .wled { throw fail("it needs a host") }

        offset = 0
        pixels = 0
        prefix = Self.defaultPrefix
        token = nil
        for item in query.split(separator: "&") where !item.isEmpty {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            switch (name, kind) {
            case ("offset", _):
                guard let ms = Double(value), Self.offsets.contains(ms) else { throw fail("offset must be -1000 to 1000 ms") }
                offset = ms / 1000
            case ("pixels", .ddp):
                guard let count = Int(value), Self.pixelCounts.contains(count) else { throw fail("pixels must be 1 to 16384") }
                pixels = count
            case ("prefix", .osc):
                guard value.hasPrefix("/"), value.count > 1, !value.hasSuffix("/"),
                      value.allSatisfy({ $0.isASCII && !" #*,?[]{}".contains($0) }) else {
                    throw fail("prefix must be an OSC address such as /decibar or /lights/left")
                }
                prefix = value
            case ("token", .http):
                guard value.count >= 8, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.~".contains($0)) }) else {
                    throw fail("token must be at least 8 letters, digits or -_.~")
                }
                token = value
            default:
                throw fail("\(kind.rawValue):// takes no \"\(name)\" (it takes \(Self.queryNames(kind)))")
            }
        }
        if kind == .ddp && pixels == 0 { throw fail("DDP needs the strip's length: ddp://HOST?pixels=N") }
    }

    private static func queryNames(_ kind: Kind) -> String {
        switch kind {
        case .wled: "offset"
        case .ddp: "pixels and offset"
        case .osc: "prefix and offset"
        case .http: "token and offset"
        }
    }
}
