/// A key as a command's option: which commands take it, what their help says of it, how it is
/// given, and what a command it means nothing to says.
extension ConfigKey {
    /// Whether `command` takes the option.
    public func applies(to command: SettingCommand) -> Bool { scope.commands.contains(command) }

    /// What `command`'s help says: the key's help, without what keys do in a window where there is none.
    public func help(for command: SettingCommand) -> String {
        guard let windowHelp, !command.hasWindow else { return help }
        return String(help.dropLast(windowHelp.count + 1))
    }

    /// The one line a command the key means nothing to refuses its option with; nil where it applies.
    public func refusal(for command: SettingCommand) -> String? {
        scope.reason(for: command).map { "\(optionName) does not apply to \(command.rawValue) (\($0))" }
    }

    /// The option is given once for each item of the list (`--app a --app b`).
    public var isRepeated: Bool {
        switch kind {
        case .numbers, .names, .outputs: true
        default: false
        }
    }

    /// Its value may start with a minus (`--floor -60`): the word after the option is its value,
    /// whatever it looks like.
    public var takesNegativeNumbers: Bool {
        switch kind {
        case .integer(let range): range.lowerBound < 0
        case .number(let range), .numbers(let range): range.lowerBound < 0
        case .numberChoice(let numbers): numbers.contains { $0 < 0 }
        case .sensitivity: true
        default: false
        }
    }

    /// The words it takes (for shell completion); nil when it takes something else.
    public var words: [String]? {
        if case .choice(let words) = kind { words.list } else { nil }
    }

    /// It names a folder, which must be there.
    public var isFolder: Bool { valueName == "folder" }
    /// Whether the value names a file that must exist when given on the command line.
    public var isFile: Bool { valueName == "file" }
}

extension Configuration {
    /// What a command's options set, as a layer over its config file (what was not given is not
    /// in it). `given` holds each option given, in the table's order: its key and its text (the
    /// texts of a repeated one, true or false for a switch, "off" for the key's off switch).
    /// Throws the first problem in one line: an option `command` does not take, a value its row
    /// refuses (naming the option), an option given without the one it needs.
    public init(options given: [(key: ConfigKey, value: JSONValue)], for command: SettingCommand) throws(ConfigFailure) {
        self.init()
        for (key, value) in given {
            if let refusal = key.refusal(for: command) { throw ConfigFailure(refusal) }
            if let switchName = key.rules.offSwitch?.name, isSet(key) {
                throw ConfigFailure("\(key.optionName) and --\(switchName) cannot be used together")
            }
            if let message = key.rules.emptyMessage, value.hasEmptyText { throw ConfigFailure(message) }
            try set(option: key, to: value)
        }
        for (key, _) in given {
            guard let needed = key.rules.needs else { continue }
            let other = try ConfigSchema.key(section: key.section, name: needed)
            if !isSet(other) { throw ConfigFailure("\(key.optionName) needs \(other.optionName)") }
        }
    }
}

extension JSONValue {
    /// Empty text, or a list with empty text in it.
    fileprivate var hasEmptyText: Bool {
        switch self {
        case .string(let text): text.isEmpty
        case .array(let items): items.contains { $0.hasEmptyText }
        default: false
        }
    }
}
