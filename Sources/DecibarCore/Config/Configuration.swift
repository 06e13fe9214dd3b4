/// The settings in force: every key's value, from the defaults, the config file and what was set
/// at run time. Values are checked when they go in, so reading one never fails.
public struct Configuration: Sendable, Equatable {
    /// Values that differ from nothing set: by path.
    public private(set) var values: [String: JSONValue] = [:]
    /// The `[keys]` section's bindings over the defaults.
    public var keys = KeyOverrides()

    public init() {}

    /// The value of `key`: set, or the key's default (nil when unset and without a default).
    public subscript(key: ConfigKey) -> JSONValue? {
        values[key.path] ?? key.defaultValue
    }

    /// Sets a key by path or unique name; returns the key. Throws for an unknown key or a bad value.
    @discardableResult
    public mutating func set(_ name: String, to value: JSONValue) throws(ConfigFailure) -> ConfigKey {
        let key = try ConfigSchema.key(named: name)
        values[key.path] = try key.check(value)
        return key
    }

    /// Sets a key already found.
    public mutating func set(_ key: ConfigKey, to value: JSONValue) throws(ConfigFailure) {
        values[key.path] = try key.check(value)
    }

    /// Sets a key from a command-line option: the failure names the option (`--bars must be ...`).
    public mutating func set(option key: ConfigKey, to value: JSONValue?) throws(ConfigFailure) {
        guard let value else { return }
        values[key.path] = try key.checkOption(value)
    }

    /// Forgets what was set for this key.
    public mutating func remove(_ key: ConfigKey) { values[key.path] = nil }

    /// Whether anything set this key.
    public func isSet(_ key: ConfigKey) -> Bool { values[key.path] != nil }

    /// The TOML text of every key: as `config init` writes it (documentation, defaults commented
    /// out) or, with `effective`, as `config show` prints the values in force.
    public func text(effective: Bool) -> String {
        var lines: [String] = []
        if !effective {
            lines += [
                "# Decibar's configuration. Every key is shown with its default, commented out: remove the #",
                "# and change the value to use another. Options on the command line override this file.",
                "# The daemon and the live window reload it when it is saved; `decibar config check` finds",
                "# mistakes. Unknown keys are errors, so a misspelt key never goes unnoticed.",
            ]
        }
        for section in ConfigSection.allCases {
            if !lines.isEmpty { lines.append("") }
            if !effective { lines += Self.comment(section.help, width: 98) }
            lines.append("[\(section.rawValue)]")
            for key in ConfigSchema.keys where key.section == section.rawValue {
                let value = self[key]
                if !effective {
                    lines.append("")
                    lines += Self.comment(key.help, width: 98)
                }
                if let value {
                    let line = "\(key.name) = \(Self.toml(value))"
                    lines.append(effective ? line : "# " + line)
                } else {
                    lines.append("# \(key.name) =    (unset)")
                }
            }
        }
        lines += keysText(effective: effective)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The `[keys]` section: how to bind (for `config init`), or the bindings set.
    private func keysText(effective: Bool) -> [String] {
        var lines = [""]
        if !effective {
            lines += Self.comment("Keys: what a key does in a window, as a command in the words of 'decibar ctl' (\"mode spectrum\", \"seek +5\", \"set theme ocean\"). [keys] binds in every window, [keys.player] while the player shows, [keys.MODE] while that mode shows; \"\" unbinds a key. 'decibar keys' lists every binding in effect.", width: 98)
            return lines + ["# [keys]", "# k = \"mode spectrum\"", "# \"ctrl+n\" = \"preset next\""]
        }
        guard !keys.isEmpty else { return [] }
        func entries(_ table: [KeyChord: String]) -> [String] {
            table.sorted { $0.key.description < $1.key.description }.map { "\(JSONValue.string($0.key.description).text) = \(JSONValue.string($0.value).text)" }
        }
        if !keys.everywhere.isEmpty { lines += ["[keys]"] + entries(keys.everywhere) }
        for (context, table) in keys.perContext.sorted(by: { $0.key.description < $1.key.description }) {
            lines += ["", "[keys.\(context)]"] + entries(table)
        }
        return lines
    }

    /// Words wrapped into `# ` lines.
    static func comment(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = "#"
        for word in text.split(separator: " ") {
            if line.count + 1 + word.count > width && line != "#" {
                lines.append(line)
                line = "#"
            }
            line += " " + word
        }
        lines.append(line)
        return lines
    }

    /// A value as TOML: strings quoted (JSON's escapes are TOML's), numbers and arrays as they are.
    static func toml(_ value: JSONValue) -> String {
        switch value {
        case .number(let number): number.plainText
        case .array(let items): "[" + items.map(toml).joined(separator: ", ") + "]"
        default: value.text
        }
    }
}

extension Configuration {
    /// These values with `other`'s on top (a file's, then the command line's).
    public func merging(_ other: Configuration) -> Configuration {
        var merged = self
        merged.values.merge(other.values) { _, new in new }
        merged.keys = keys.merging(other.keys)
        return merged
    }
}
