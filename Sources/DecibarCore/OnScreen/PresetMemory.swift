/// The presets a person marked as favourites and the last ones they chose, kept between runs
/// (`$XDG_STATE_HOME/decibar/presets.json`). Presets are kept by name, so a favourite survives
/// its pack being moved.
public struct PresetMemory: Sendable, Equatable {
    public private(set) var favourites: [String] = []
    /// Most recent first, at most `recentLimit`.
    public private(set) var recent: [String] = []

    public static let recentLimit = 50
    static let version = 1

    public init() {}

    /// Reads the file's bytes; fails, saying what is wrong, for anything but this form.
    public init(json bytes: some Collection<UInt8>) throws(ConfigFailure) {
        guard let value = JSONValue(parsing: bytes), case .object(let members) = value else {
            throw ConfigFailure("not JSON of the form Decibar writes")
        }
        guard members["version"]?.number == Double(Self.version) else { throw ConfigFailure("not version \(Self.version)") }
        func names(_ key: String) throws(ConfigFailure) -> [String] {
            guard let value = members[key] else { return [] }
            guard case .array(let items) = value else { throw ConfigFailure("\(key) is not a list") }
            var names: [String] = []
            for item in items {
                guard let name = item.string, !name.isEmpty else { throw ConfigFailure("\(key) holds something other than a name") }
                if !names.contains(name) { names.append(name) }
            }
            return names
        }
        favourites = try names("favourites")
        recent = Array(try names("recent").prefix(Self.recentLimit))
    }

    public var json: [UInt8] {
        var bytes: [UInt8] = []
        JSONValue.object([
            "version": .number(Double(Self.version)),
            "favourites": .array(favourites.map(JSONValue.string)),
            "recent": .array(recent.map(JSONValue.string)),
        ]).append(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    public func isFavourite(_ name: String) -> Bool { favourites.contains(name) }

    /// Marks `name` a favourite, or unmarks it; returns whether it is one now.
    @discardableResult
    public mutating func toggleFavourite(_ name: String) -> Bool {
        if let index = favourites.firstIndex(of: name) {
            favourites.remove(at: index)
            return false
        }
        favourites.append(name)
        return true
    }

    /// `name` was chosen: first of the recent, once.
    public mutating func chose(_ name: String) {
        recent.removeAll { $0 == name }
        recent.insert(name, at: 0)
        if recent.count > Self.recentLimit { recent.removeLast(recent.count - Self.recentLimit) }
    }
}
