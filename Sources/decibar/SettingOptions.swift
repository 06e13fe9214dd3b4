import ArgumentParser
import DecibarApp
import DecibarCore

/// A command whose options include the settings that apply to it.
protocol SettingsCommand {
    static var settingCommand: SettingCommand { get }
    var options: SettingOptions<Self> { get }
    /// Its own rows, which only its command line takes (render's `--fps`), and rows it knows only
    /// to refuse (a window's, in render). One spelled as a table row's option (levels' `--mode`)
    /// takes that option's place.
    static var ownRows: [ConfigKey] { get }
}

extension SettingsCommand {
    static var ownRows: [ConfigKey] { [] }
}

/// The options that set config keys, made from the settings table: those that apply to `Command`
/// are listed and taken, the others are known (listed nowhere: not in help, man pages or
/// completions) only to be refused in one line that says why. A new row needs nothing here.
///
/// ArgumentParser finds a type's options by reflecting over its properties; this type's mirror
/// shows it the table's rows instead, and its decoding reads them by the same labels.
struct SettingOptions<Command: SettingsCommand>: ParsableArguments, CustomReflectable {
    /// Each option given, in the table's order.
    private var given: [(key: ConfigKey, value: JSONValue)] = []
    /// Whether `--config` was given to a command that reads no file (known only to be refused).
    private var configFileGiven = false

    init() {}

    init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: Label.self)
        for key in Self.keys {
            let label = Label(key)
            if case .boolean = key.kind, !key.isInConfigFile {
                if try values.decode(Flag<Bool>.self, forKey: label).wrappedValue { given.append((key, .bool(true))) }
            } else if case .boolean = key.kind {
                if let flag = try values.decode(Flag<Bool?>.self, forKey: label).wrappedValue { given.append((key, .bool(flag))) }
            } else if key.isRepeated {
                let texts = try values.decode(Option<[String]>.self, forKey: label).wrappedValue
                if !texts.isEmpty { given.append((key, .array(texts.map(JSONValue.string)))) }
            } else if let text = try values.decode(Option<String?>.self, forKey: label).wrappedValue {
                given.append((key, .string(text)))
            }
            if key.rules.offSwitch != nil, try values.decode(Flag<Bool>.self, forKey: label.offSwitch).wrappedValue {
                given.append((key, .string("off")))
            }
        }
        if Command.settingCommand.configFileRefusal != nil {
            configFileGiven = try values.decode(Option<String?>.self, forKey: Label(stringValue: ConfigFileOption.name)).wrappedValue != nil
        }
    }

    /// The rows `Command` knows: the table's (but those its own rows spell again), then its own.
    private static var keys: [ConfigKey] {
        let own = Command.ownRows
        return ConfigSchema.keys.filter { key in !own.contains { $0.optionName == key.optionName } } + own
    }

    var customMirror: Mirror { Mirror(self, children: Self.keys.flatMap(Self.arguments) + Self.refusedConfigFile) }

    /// `--config` where no file is read: `ConfigFileOption` is the readers' (and listed), this
    /// the others' (listed nowhere), so that giving it says why instead of "Unknown option".
    private static var refusedConfigFile: [Mirror.Child] {
        guard Command.settingCommand.configFileRefusal != nil else { return [] }
        return [(ConfigFileOption.name, Option<String?>(name: .customLong(ConfigFileOption.name), help: ArgumentHelp(visibility: .private)))]
    }

    /// A row's option (and its off switch), as ArgumentParser's property wrappers.
    private static func arguments(for key: ConfigKey) -> [Mirror.Child] {
        let help = ArgumentHelp(key.help(for: Command.settingCommand), valueName: key.valueName,
                                visibility: key.applies(to: Command.settingCommand) ? .default : .private)
        let name = NameSpecification.customLong(String(key.optionName.dropFirst(2)))
        let completion = key.words.map(CompletionKind.list) ?? (key.isFolder ? .directory : nil)
        let label = Label(key).stringValue
        var arguments: [Mirror.Child]
        if case .boolean = key.kind, !key.isInConfigFile {
            // A command's own switch is only turned on (there is no file's value to turn off).
            arguments = [(label, Flag<Bool>(wrappedValue: false, name: name, help: help))]
        } else if case .boolean = key.kind {
            arguments = [(label, Flag<Bool?>(name: name, inversion: .prefixedNo, help: help))]
        } else if key.isRepeated {
            arguments = [(label, Option<[String]>(wrappedValue: [], name: name, parsing: key.takesNegativeNumbers ? .unconditionalSingleValue : .singleValue,
                                                  help: help, completion: completion))]
        } else {
            arguments = [(label, Option<String?>(name: name, parsing: key.takesNegativeNumbers ? .unconditional : .next, help: help,
                                                 completion: completion))]
        }
        if let offSwitch = key.rules.offSwitch {
            arguments.append((Label(key).offSwitch.stringValue,
                              Flag<Bool>(wrappedValue: false, name: .customLong(offSwitch.name), help: ArgumentHelp(offSwitch.help, visibility: help.visibility))))
        }
        return arguments
    }

    /// The options given, as a layer over the config file: an option that does not apply, or a
    /// value its row refuses, is a usage error (status 2).
    func layer() throws -> Configuration {
        do {
            return try Configuration(options: given, for: Command.settingCommand)
        } catch {
            throw ValidationError(error.message)
        }
    }

    func validate() throws {
        if configFileGiven, let refusal = Command.settingCommand.configFileRefusal { throw ValidationError(refusal) }
        if let missing = try layer().missingPath(among: Self.keys) { throw ValidationError(missing) }
    }

    /// A row's label in the mirror and in decoding: its path, with `_` for the dot.
    private struct Label: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
        init(_ key: ConfigKey) { stringValue = key.section + "_" + key.name }
        var offSwitch: Label { Label(stringValue: stringValue + "_off") }
    }
}
