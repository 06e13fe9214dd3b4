/// A config key with the Swift type of its value: one row of `ConfigSchema`. The row is the only
/// place the key is spelled; the config file, `ctl set`/`get`, the commands' options and
/// `docs/config.md` all come from it, and code reads the value typed: `configuration[ConfigSchema.display.bars]`.
public struct Setting<Value: Sendable>: Sendable {
    public let key: ConfigKey
    /// The value from what is set (or the key's default, or nil when neither).
    private let read: @Sendable (JSONValue?) -> Value

    init(_ key: ConfigKey, read: @escaping @Sendable (JSONValue?) -> Value) {
        self.key = key
        self.read = read
    }

    /// The value when nothing sets the key.
    public var defaultValue: Value { read(key.defaultValue) }

    /// The value of this key in `configuration`.
    public func value(in configuration: Configuration) -> Value { read(configuration[key]) }
}

extension Configuration {
    /// The typed value of a setting: what is set, or its default.
    public subscript<Value>(setting: Setting<Value>) -> Value { setting.value(in: self) }

    /// Whether anything (a file, a flag, `ctl set`) set this key.
    public func isSet<Value>(_ setting: Setting<Value>) -> Bool { isSet(setting.key) }
}

// The kinds of row. Each builds the key and the reader, so a default is written once.
extension Setting {
    public static func choice<Choice>(_ section: some RowHome, _ name: String, default defaultValue: Choice, for scope: SettingScope? = nil,
                               appliesLive: Bool = true, booleanWords: (true: Choice, false: Choice)? = nil, inWindow: String? = nil,
                               _ help: String) -> Setting<Choice>
        where Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
        Setting<Choice>(ConfigKey(section, name, .choice(ChoiceWords(reading: { Choice.allCases.map(\.rawValue) })), .string(defaultValue.rawValue), for: scope,
                                  appliesLive: appliesLive, booleanWords: booleanWords.map { ($0.true.rawValue, $0.false.rawValue) },
                                  inWindow: inWindow, help)) {
            $0?.string.flatMap(Choice.init(rawValue:)) ?? defaultValue
        }
    }

    /// What to draw: the modes the catalog registered, each said in its own words.
    public static func mode(_ section: some RowHome, _ name: String, default defaultValue: String, inWindow: String) -> Setting<VisualMode> {
        Setting<VisualMode>(ConfigKey(section, name, .choice(ChoiceWords(reading: { VisualMode.allCases.map(\.rawValue) })),
                                      .string(defaultValue), inWindow: inWindow, reading: {
            let modes = VisualModes.all.map { "\($0.name) (\($0.summary))" }
            return "What to draw: " + (modes.count > 1 ? modes.dropLast().joined(separator: ", ") + " or " + modes[modes.count - 1] : modes.joined()) + "."
        })) {
            $0?.string.flatMap(VisualMode.init(rawValue:)) ?? VisualMode(registered: defaultValue)
        }
    }

    public static func words(_ section: some RowHome, _ name: String, _ words: [String], default defaultValue: String,
                      for scope: SettingScope? = nil, appliesLive: Bool = true, _ help: String) -> Setting<String> {
        Setting<String>(ConfigKey(section, name, .choice(ChoiceWords(words)), .string(defaultValue), for: scope, appliesLive: appliesLive, help)) {
            $0?.string ?? defaultValue
        }
    }

    /// One of these words, or unset (which means something computed, said in `help`).
    public static func words(_ section: some RowHome, _ name: String, _ words: [String], for scope: SettingScope? = nil,
                             valueName: String? = nil, _ help: String) -> Setting<String?> {
        Setting<String?>(ConfigKey(section, name, .choice(ChoiceWords(words)), nil, for: scope, valueName: valueName, help)) { $0?.string }
    }

    /// One of a choice's words, or unset (which means something computed, said in `help`).
    public static func choice<Choice>(_ section: some RowHome, _ name: String, for scope: SettingScope? = nil, _ help: String) -> Setting<Choice?>
        where Choice: RawRepresentable & CaseIterable & Sendable, Choice.RawValue == String {
        Setting<Choice?>(ConfigKey(section, name, .choice(ChoiceWords(reading: { Choice.allCases.map(\.rawValue) })), nil, for: scope, help)) {
            $0?.string.flatMap(Choice.init(rawValue:))
        }
    }

    public static func boolean(_ section: some RowHome, _ name: String, default defaultValue: Bool = false, for scope: SettingScope? = nil,
                        appliesLive: Bool = true, inWindow: String? = nil, _ help: String) -> Setting<Bool> {
        Setting<Bool>(ConfigKey(section, name, .boolean, .bool(defaultValue), for: scope, appliesLive: appliesLive, inWindow: inWindow, help)) {
            if case .bool(let flag)? = $0 { flag } else { defaultValue }
        }
    }

    public static func integer(_ section: some RowHome, _ name: String, _ range: ClosedRange<Int>, default defaultValue: Int,
                        for scope: SettingScope? = nil, unit: String? = nil, _ help: String) -> Setting<Int> {
        Setting<Int>(ConfigKey(section, name, .integer(range), .number(Double(defaultValue)), for: scope, unit: unit, help)) {
            $0?.number.map { Int($0) } ?? defaultValue
        }
    }

    /// A whole number whose absence means something computed (said in `help`).
    public static func integer(_ section: some RowHome, _ name: String, _ range: ClosedRange<Int>, for scope: SettingScope? = nil,
                        unit: String? = nil, rules: ConfigKey.OptionRules = .init(), _ help: String) -> Setting<Int?> {
        Setting<Int?>(ConfigKey(section, name, .integer(range), nil, for: scope, unit: unit, rules: rules, help)) { $0?.number.map { Int($0) } }
    }

    public static func number(_ section: some RowHome, _ name: String, _ range: ClosedRange<Double>, default defaultValue: Double,
                       for scope: SettingScope? = nil, unit: String? = nil, _ help: String) -> Setting<Double> {
        Setting<Double>(ConfigKey(section, name, .number(range), .number(defaultValue), for: scope, unit: unit, help)) {
            $0?.number ?? defaultValue
        }
    }

    /// A number whose absence means something computed (said in `help`).
    public static func number(_ section: some RowHome, _ name: String, _ range: ClosedRange<Double>, for scope: SettingScope? = nil,
                       unit: String? = nil, appliesLive: Bool = true, option: String? = nil, _ help: String) -> Setting<Double?> {
        Setting<Double?>(ConfigKey(section, name, .number(range), nil, for: scope, appliesLive: appliesLive, unit: unit, option: option, help)) {
            $0?.number
        }
    }

    public static func numberChoice(_ section: some RowHome, _ name: String, _ numbers: [Double], default defaultValue: Double,
                             for scope: SettingScope? = nil, unit: String? = nil, _ help: String) -> Setting<Double> {
        Setting<Double>(ConfigKey(section, name, .numberChoice(numbers), .number(defaultValue), for: scope, unit: unit, help)) {
            $0?.number ?? defaultValue
        }
    }

    public static func numbers(_ section: some RowHome, _ name: String, _ range: ClosedRange<Double>, for scope: SettingScope? = nil,
                        unit: String? = nil, option: String? = nil, _ help: String) -> Setting<[Double]> {
        Setting<[Double]>(ConfigKey(section, name, .numbers(range), .array([]), for: scope, unit: unit, option: option, help)) {
            if case .array(let items)? = $0 { items.compactMap(\.number) } else { [] }
        }
    }

    public static func size(_ section: some RowHome, _ name: String, default defaultValue: (width: Int, height: Int),
                     for scope: SettingScope? = nil, _ help: String) -> Setting<PixelSize> {
        let fallback = PixelSize(width: defaultValue.width, height: defaultValue.height)
        return Setting<PixelSize>(ConfigKey(section, name, .size, .string(fallback.text), for: scope, valueName: "WxH", help)) {
            $0?.string.flatMap(PixelSize.init(text:)) ?? fallback
        }
    }

    public static func sensitivity(_ section: some RowHome, _ name: String, for scope: SettingScope? = nil,
                            rules: ConfigKey.OptionRules = .init(), _ help: String) -> Setting<Sensitivity> {
        Setting<Sensitivity>(ConfigKey(section, name, .sensitivity, .string("auto"), for: scope, unit: "dB", rules: rules, help)) {
            switch $0 {
            case .number(let gain)?: .fixed(decibels: Float(gain))
            case .string("off")?: .off
            default: .automatic
            }
        }
    }

    /// `auto` (the default: the picture's scale follows its cost) or a fixed fraction in the range.
    public static func scale(_ section: some RowHome, _ name: String, _ range: ClosedRange<Double>, for scope: SettingScope? = nil,
                             _ help: String) -> Setting<PictureScale> {
        Setting<PictureScale>(ConfigKey(section, name, .scale(range), .string("auto"), for: scope, help)) {
            $0?.numeric.map(PictureScale.fixed) ?? .automatic
        }
    }

    public static func byteSize(_ section: some RowHome, _ name: String, _ range: ClosedRange<Int64>, default defaultValue: Int64,
                         for scope: SettingScope? = nil, _ help: String) -> Setting<Int64> {
        Setting<Int64>(ConfigKey(section, name, .byteSize(range), .string(ConfigKey.byteText(defaultValue)), for: scope, valueName: "size",
                                 help)) {
            $0?.string.flatMap(ConfigKey.byteSize) ?? defaultValue
        }
    }

    /// Names; none set is the empty list (said in `help`).
    public static func names(_ section: some RowHome, _ name: String, for scope: SettingScope? = nil, option: String? = nil,
                      rules: ConfigKey.OptionRules = .init(), _ help: String) -> Setting<[String]> {
        Setting<[String]>(ConfigKey(section, name, .names, .array([]), for: scope, option: option, rules: rules, help)) {
            if case .array(let items)? = $0 { items.compactMap(\.string) } else { [] }
        }
    }

    /// Output URLs (`--send`), checked as `OutputTarget` reads them.
    public static func outputs(_ section: some RowHome, _ name: String, for scope: SettingScope? = nil, option: String? = nil,
                        _ help: String) -> Setting<[OutputTarget]> {
        Setting<[OutputTarget]>(ConfigKey(section, name, .outputs, .array([]), for: scope, option: option, help)) {
            if case .array(let items)? = $0 { items.compactMap { $0.string.flatMap { try? OutputTarget(url: $0) } } } else { [] }
        }
    }

    /// Free text whose absence means something computed (said in `help`).
    public static func text(_ section: some RowHome, _ name: String, valueName: String, for scope: SettingScope? = nil, appliesLive: Bool = true,
                     inWindow: String? = nil, rules: ConfigKey.OptionRules = .init(), _ help: String) -> Setting<String?> {
        Setting<String?>(ConfigKey(section, name, .text, nil, for: scope, appliesLive: appliesLive, valueName: valueName, inWindow: inWindow,
                                   rules: rules, help)) { $0?.string }
    }
}

/// `WxH` in pixels, 16 to 16384 each way.
public struct PixelSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WxH`; nil for anything else.
    public init?(text: String) {
        guard let size = ConfigKey.size(text) else { return nil }
        self.init(width: size.width, height: size.height)
    }

    public var text: String { "\(width)x\(height)" }
}
