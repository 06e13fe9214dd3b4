import DecibarCore

/// What a window needs to follow its config file: the file, and the command line's values that
/// stay over whatever the file says.
public struct ConfigReload: Sendable {
    public var path: String
    public var overrides: Configuration

    public init(path: String, overrides: Configuration) {
        self.path = path
        self.overrides = overrides
    }
}
