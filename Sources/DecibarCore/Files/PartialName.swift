/// Names of the files and folders Decibar writes before renaming them into place.
///
/// A partial sits next to its destination as `.decibar-KEY-PID-TAG.partial[-ROLE][.EXT]`: hidden,
/// short whatever the destination's name (a name near 255 bytes still leaves room), and marked with
/// a key of the destination and the writer's process ID, so the next run for the same destination
/// can tell its own leftovers from a partial that another running Decibar is still writing.
public struct PartialName: Equatable, Sendable {
    /// Identifies the destination (a hash of its path as given).
    public var key: String
    public var processID: Int32
    /// Distinguishes partials of one process (random).
    public var tag: String
    /// What the partial holds when a writer needs several (`video`, `audio`), or empty.
    public var role: String
    /// The extension, without the dot, or empty.
    public var fileExtension: String

    public init(key: String, processID: Int32, tag: String, role: String = "", fileExtension: String = "") {
        self.key = key
        self.processID = processID
        self.tag = tag
        self.role = role
        self.fileExtension = fileExtension
    }

    static let prefix = ".decibar-"
    static let marker = ".partial"

    /// The key for a destination path.
    public static func key(forDestination path: String) -> String {
        let hash = String(StableHash.fnv1a(path), radix: 16)
        return String(repeating: "0", count: 16 - hash.count) + hash
    }

    /// The file name.
    public var name: String {
        var name = Self.prefix + key + "-" + String(processID) + "-" + tag + Self.marker
        if !role.isEmpty { name += "-" + role }
        if !fileExtension.isEmpty { name += "." + fileExtension }
        return name
    }

    /// Reads a name written by `name`; nil for anything else.
    public init?(parsing name: String) {
        guard name.hasPrefix(Self.prefix), let markerRange = name.firstRange(of: Self.marker) else { return nil }
        let fields = name[name.index(name.startIndex, offsetBy: Self.prefix.count) ..< markerRange.lowerBound]
            .split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 16, fields[0].allSatisfy(\.isHexDigit),
              let processID = Int32(fields[1]), processID > 0, !fields[2].isEmpty,
              fields[2].allSatisfy({ $0.isLetter || $0.isNumber }) else { return nil }
        var rest = name[markerRange.upperBound...]
        var role = ""
        if rest.hasPrefix("-") {
            let end = rest.firstIndex(of: ".") ?? rest.endIndex
            role = String(rest[rest.index(after: rest.startIndex) ..< end])
            rest = rest[end...]
        }
        guard rest.isEmpty || rest.hasPrefix(".") else { return nil }
        self.init(key: String(fields[0]), processID: processID, tag: String(fields[2]), role: role,
                  fileExtension: String(rest.dropFirst()))
    }
}
