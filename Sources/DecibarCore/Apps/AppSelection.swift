/// Which apps' audio to listen to (`--app`, `--exclude-app`, `audio.apps`, `audio.exclude_apps`).
///
/// An app is named as the sound server knows its playback streams: `application.name`
/// ("Spotify", "Firefox") or `application.process.binary` ("spotify", "firefox-esr"), either,
/// in any case. `decibar devices` lists both for everything playing.
public struct AppSelection: Sendable, Equatable {
    /// Apps heard; empty means every app not excluded.
    public var apps: [String]
    /// Apps never heard, even when `apps` names them.
    public var excludedApps: [String]

    public init(apps: [String] = [], excludedApps: [String] = []) {
        self.apps = apps
        self.excludedApps = excludedApps
    }

    /// No app named either way: the whole output is tapped instead.
    public var isEmpty: Bool { apps.isEmpty && excludedApps.isEmpty }

    /// Whether a playback stream of the app with this name and binary is heard.
    public func includes(name: String?, binary: String?) -> Bool {
        func named(_ list: [String]) -> Bool {
            list.contains { wanted in
                name.map { $0.caseInsensitiveEquals(wanted) } == true || binary.map { $0.caseInsensitiveEquals(wanted) } == true
            }
        }
        if named(excludedApps) { return false }
        return apps.isEmpty || named(apps)
    }

    /// What is heard, for the window's title and `ctl status`: "spotify", "mpv and firefox",
    /// "everything but Discord", "mpv but not Discord".
    public var summary: String {
        let heard = apps.isEmpty ? "everything" : Self.list(apps)
        guard !excludedApps.isEmpty else { return heard }
        return heard + (apps.isEmpty ? " but " : " but not ") + Self.list(excludedApps)
    }

    /// What the window says while no stream matches.
    public var waitingText: String {
        apps.isEmpty ? "nothing plays (\(summary))" : "waiting for \(summary)"
    }

    private static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: ""
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        }
    }
}

extension String {
    /// Equal ignoring case, as app names are matched (ASCII and beyond: "Ärger" matches "ärger").
    func caseInsensitiveEquals(_ other: String) -> Bool {
        lowercased() == other.lowercased()
    }
}
