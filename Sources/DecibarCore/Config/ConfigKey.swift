/// One setting of the config file, of `decibar ctl set` and (under its option's name) of the
/// command line: where it lives, what it takes, what it means, and its default.
public struct ConfigKey: Sendable, Equatable {
    public static func == (a: ConfigKey, b: ConfigKey) -> Bool { a.path == b.path }

    public enum Kind: Sendable {
        case boolean
        case integer(ClosedRange<Int>)
        case number(ClosedRange<Double>)
        /// One of these words (read when asked: a mode registered later is among them).
        case choice(ChoiceWords)
        /// One of these numbers.
        case numberChoice([Double])
        /// A list of numbers in the range (a single number is a list of one).
        case numbers(ClosedRange<Double>)
        /// `WxH` pixels, 16 to 16384 each.
        case size
        /// `"auto"`, `"off"` or a gain in dB from -40 to 40.
        case sensitivity
        /// `"auto"` or a number in the range (a picture's scale).
        case scale(ClosedRange<Double>)
        /// Bytes, with an optional K, M or G (powers of 1024) within the range: `"1G"`, `"500M"`.
        case byteSize(ClosedRange<Int64>)
        /// Free text (a device name, a folder).
        case text
        /// A list of names (apps); a single name is a list of one.
        case names
        /// A list of output URLs (`--send`), each checked by `OutputTarget`.
        case outputs
    }

    /// The section of the file (`display`, `audio`, `player`, `daemon`), or for an option only a
    /// command line takes, its home (`render`).
    public let section: String
    /// Whether the config file and `ctl set` take it (a command's own option is not).
    public let isInConfigFile: Bool
    /// The key inside it, as in the file (`bar_width`); the option is `--bar-width`.
    public let name: String
    public let kind: Kind
    /// The documentation: one or two sentences, written into `config init`'s comments (and, for
    /// a key that keys change in a window, a last sentence that says so: `windowHelp`).
    public var help: String {
        let text = helpText()
        return windowHelp.map { text + " " + $0 } ?? text
    }
    private let helpText: @Sendable () -> String
    /// What keys do to it in a window ("m switches at run time."): said only where there is one.
    public let windowHelp: String?
    /// The commands it means something to: they take its option; the others refuse it.
    public let scope: SettingScope
    /// The value when nothing sets it; nil when unset means something computed (said in `help`).
    public let defaultValue: JSONValue?
    /// Whether a running daemon can take a new value without reopening its window.
    public let appliesLive: Bool

    /// For a choice that used to be a boolean: the words true and false stand for.
    public let booleanWords: (true: String, false: String)?
    /// What a number counts (`ms`, `dB`, `pixels`), for help and messages; nil for a plain count.
    public let unit: String?
    /// How help shows the value (`px`, `WxH`, a choice's words).
    public var valueName: String { givenValueName ?? Self.valueName(kind, unit: unit) }
    private let givenValueName: String?

    /// What the command line has besides the key's own option, and its checks there.
    public struct OptionRules: Sendable {
        /// A switch that sets the key to "off" (`--no-autosens`), and its help.
        public var offSwitch: (name: String, help: String)?
        /// The key of the section whose option must come with this one's (`--bar-spacing` needs `--bar-width`).
        public var needs: String?
        /// What an empty name given to the option says.
        public var emptyMessage: String?
        /// Text may be empty (`--title ""`: no title), which says something of its own.
        public var allowsEmpty = false

        public init(offSwitch: (name: String, help: String)? = nil, needs: String? = nil, emptyMessage: String? = nil,
                    allowsEmpty: Bool = false) {
            self.offSwitch = offSwitch
            self.needs = needs
            self.emptyMessage = emptyMessage
            self.allowsEmpty = allowsEmpty
        }
    }

    /// What the command line has besides the key's own option.
    public let rules: OptionRules

    init(_ section: any RowHome, _ name: String, _ kind: Kind, _ defaultValue: JSONValue?, for scope: SettingScope? = nil,
         appliesLive: Bool = true, booleanWords: (true: String, false: String)? = nil, unit: String? = nil, valueName: String? = nil,
         option: String? = nil, inWindow windowHelp: String? = nil, rules: OptionRules = OptionRules(), _ help: String) {
        self.init(section, name, kind, defaultValue, for: scope, appliesLive: appliesLive, booleanWords: booleanWords, unit: unit,
                  valueName: valueName, option: option, inWindow: windowHelp, rules: rules, reading: { help })
    }

    /// A key whose help is made when asked (from what is registered then).
    init(_ section: any RowHome, _ name: String, _ kind: Kind, _ defaultValue: JSONValue?, for scope: SettingScope? = nil,
         appliesLive: Bool = true, booleanWords: (true: String, false: String)? = nil, unit: String? = nil, valueName: String? = nil,
         option: String? = nil, inWindow windowHelp: String? = nil, rules: OptionRules = OptionRules(), reading help: @escaping @Sendable () -> String) {
        self.booleanWords = booleanWords
        optionName = "--" + (option ?? name.replacingUnderscores)
        self.section = section.homeName
        isInConfigFile = section.isInConfigFile
        self.name = name
        path = section.homeName + "." + name
        self.kind = kind
        helpText = help
        self.windowHelp = windowHelp
        self.scope = scope ?? section.homeScope
        self.rules = rules
        self.defaultValue = defaultValue
        self.appliesLive = appliesLive
        self.unit = unit
        givenValueName = valueName
    }

    private static func valueName(_ kind: Kind, unit: String?) -> String {
        switch kind {
        case .boolean: "true|false"
        case .choice(let words): words.list.joined(separator: "|")
        case .size: "WxH"
        case .byteSize: "size"
        case .text: "text"
        case .names: "name"
        case .outputs: "url"
        case .sensitivity: "dB"
        case .scale: "auto|factor"
        case .integer, .number, .numberChoice, .numbers:
            switch unit {
            case "pixels"?: "px"
            case let unit?: unit
            case nil: "n"
            }
        }
    }

    /// `display.theme`.
    public let path: String

    /// The command-line option that sets it: `--bar-width` (another spelling only where the key's
    /// own would clash with a command's option, as `display.fps` with `render --fps`).
    public let optionName: String

    /// Checks a value and returns it in its plain form: numbers as numbers, sizes and choices as
    /// strings. Text from the command line (`"48"`, `"on"`) is read as the kind says.
    public func check(_ value: JSONValue) throws(ConfigFailure) -> JSONValue {
        func fail(_ expected: String) -> ConfigFailure {
            ConfigFailure("\(path) must be \(expected), not \(value.shortText)")
        }
        switch kind {
        case .boolean:
            switch value {
            case .bool: return value
            case .string(let text):
                switch text.lowercased() {
                case "true", "yes", "on", "1": return .bool(true)
                case "false", "no", "off", "0": return .bool(false)
                default: throw fail("true or false")
                }
            default: throw fail("true or false")
            }
        case .integer(let range):
            guard let number = value.numeric, number == number.rounded(), number >= Double(range.lowerBound),
                  number <= Double(range.upperBound) else {
                throw fail("a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return .number(number)
        case .number(let range):
            guard let number = value.numeric, range.contains(number) else {
                throw fail(range.upperBound == .greatestFiniteMagnitude ? "a number of at least \(range.lowerBound.plainText)"
                           : "a number from \(range.lowerBound.plainText) to \(range.upperBound.plainText)")
            }
            return .number(number)
        case .choice(let words):
            // A key that was a switch before it had words still takes true and false.
            if case .bool(let flag) = value, let booleanWords { return .string(flag ? booleanWords.true : booleanWords.false) }
            guard let text = value.string?.lowercased(), words.list.contains(text) else {
                throw fail("one of \(words.list.joined(separator: ", "))")
            }
            return .string(text)
        case .numberChoice(let numbers):
            guard let number = value.numeric, numbers.contains(number) else {
                throw fail("one of \(numbers.map(\.plainText).joined(separator: ", "))")
            }
            return .number(number)
        case .numbers(let range):
            let items: [JSONValue]
            switch value {
            case .array(let values): items = values
            case .string(let text): items = text.split(separator: ",").map { .string(String($0)) }
            default: items = [value]
            }
            var numbers: [JSONValue] = []
            for item in items {
                guard let number = item.numeric, range.contains(number) else {
                    throw fail("a list of numbers from \(range.lowerBound.plainText) to \(range.upperBound.plainText)")
                }
                numbers.append(.number(number))
            }
            return .array(numbers)
        case .size:
            guard let text = value.string, let size = Self.size(text) else { throw fail("a size such as \"1280x720\" (16 to 16384 each way) or 16:9, 9:16, 1:1 or 4:5 (1920x1080, 1080x1920, 1080x1080, 1080x1350)") }
            return .string("\(size.width)x\(size.height)")
        case .scale(let range):
            if value.string?.lowercased() == "auto" { return .string("auto") }
            guard let number = value.numeric, range.contains(number) else {
                throw fail("\"auto\" or a number from \(range.lowerBound.plainText) to \(range.upperBound.plainText)")
            }
            return .number(number)
        case .sensitivity:
            if let text = value.string?.lowercased(), text == "auto" || text == "off" { return .string(text) }
            guard let number = value.numeric, (-40...40).contains(number) else { throw fail("\"auto\", \"off\" or a gain from -40 to 40 dB") }
            return .number(number)
        case .byteSize(let range):
            guard let bytes = (value.string.flatMap(Self.byteSize) ?? value.numeric.flatMap { Int64(exactly: $0) }),
                  range.contains(bytes) else {
                throw fail("a size in bytes such as \"500M\" or \"2G\" (K, M and G are powers of 1024), from \(Self.byteText(range.lowerBound)) to \(Self.byteText(range.upperBound))")
            }
            return .string(Self.byteText(bytes))
        case .text:
            guard let text = value.string, !text.isEmpty || rules.allowsEmpty, !text.contains("\0") else { throw fail("a non-empty string") }
            return value
        case .names:
            // From the command line or `ctl set`: a JSON list (`["spotify"]`) or names between commas.
            let items: [JSONValue]
            switch value {
            case .array(let values): items = values
            case .string(let text) where text.hasPrefix("["):
                guard case .array(let values)? = JSONValue(parsing: Array(text.utf8)) else { throw fail("a list of names such as [\"spotify\"]") }
                items = values
            case .string(let text): items = text.split(separator: ",").map { .string(String(String($0).trimmingSpaces)) }
            default: items = [value]
            }
            var names: [JSONValue] = []
            for item in items {
                guard let text = item.string, !text.isEmpty, !text.contains("\0") else { throw fail("a list of names such as [\"spotify\"]") }
                names.append(.string(text))
            }
            return .array(names)
        case .outputs:
            // A JSON list, URLs between commas, or one URL.
            let items: [JSONValue]
            switch value {
            case .array(let values): items = values
            case .string(let text) where text.hasPrefix("["):
                guard case .array(let values)? = JSONValue(parsing: Array(text.utf8)) else { throw fail("a list of output URLs such as [\"wled://\"]") }
                items = values
            case .string(let text): items = text.split(separator: ",").map { .string(String(String($0).trimmingSpaces)) }
            default: items = [value]
            }
            var urls: [JSONValue] = []
            for item in items {
                guard let text = item.string else { throw fail("a list of output URLs such as [\"wled://\"]") }
                do {
                    _ = try OutputTarget(url: text)
                } catch {
                    throw ConfigFailure("\(path): \(error.message)")
                }
                urls.append(.string(text))
            }
            return .array(urls)
        }
    }

    /// Checks a value given on the command line; the failure names the option, as the commands
    /// always have: `--bars must be between 1 and 1024`.
    public func checkOption(_ value: JSONValue) throws(ConfigFailure) -> JSONValue {
        do {
            return try check(value)
        } catch {
            // `check`'s messages start with the path (and a colon before a URL's own message).
            let rest = error.message.dropFirst(path.count).drop { $0 == ":" || $0 == " " }
            throw ConfigFailure(optionName + " " + (optionRequirement ?? String(rest)))
        }
    }

    /// What the option takes, in the commands' wording.
    private var optionRequirement: String? {
        let unitText = unit.map { " " + $0 } ?? ""
        switch kind {
        case .integer(let range): return "must be between \(range.lowerBound) and \(range.upperBound)\(unitText)"
        case .number(let range) where range.upperBound == .greatestFiniteMagnitude:
            return "must be at least \(range.lowerBound.plainText)\(unitText)"
        case .number(let range), .numbers(let range):
            return "must be between \(range.lowerBound.plainText) and \(range.upperBound.plainText)\(unitText)"
        case .sensitivity: return "must be between -40 and 40 dB"
        case .scale(let range): return "must be auto or between \(range.lowerBound.plainText) and \(range.upperBound.plainText)"
        case .choice(let words): return "must be one of " + words.list.joined(separator: ", ")
        case .numberChoice(let numbers):
            let texts = numbers.map(\.plainText)
            return "must be " + texts.dropLast().joined(separator: ", ") + " or " + (texts.last ?? "")
        case .boolean, .size, .byteSize, .text, .names, .outputs: return nil
        }
    }

    /// Reads a byte count: digits, then optionally K, M or G (KiB, MiB, GiB; a trailing B or iB is allowed).
    public static func byteSize(_ text: String) -> Int64? {
        var digits = String(text.uppercased().filter { $0 != " " })
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) && digits.count > suffix.count {
            digits.removeLast(suffix.count)
            break
        }
        var shift: Int64 = 0
        switch digits.last {
        case "K": shift = 10
        case "M": shift = 20
        case "G": shift = 30
        default: break
        }
        if shift > 0 { digits.removeLast() }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.count <= 12, let value = Int64(digits) else { return nil }
        return value << shift
    }

    /// A byte count as `byteSize` reads it, in the largest unit that divides it.
    public static func byteText(_ bytes: Int64) -> String {
        for (unit, shift) in [("G", Int64(30)), ("M", 20), ("K", 10)] where bytes > 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return String(bytes)
    }

    /// Reads `WxH`.
    /// The shapes videos are posted in, by their aspect ratio, at the size the sites show them.
    public static let sizePresets: [(name: String, width: Int, height: Int)] = [
        ("16:9", 1920, 1080), ("9:16", 1080, 1920), ("1:1", 1080, 1080), ("4:5", 1080, 1350),
    ]

    public static func size(_ text: String) -> (width: Int, height: Int)? {
        let trimmed = text.trimmingSpaces
        if let preset = sizePresets.first(where: { $0.name == trimmed }) { return (preset.width, preset.height) }
        let parts = trimmed.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (16...16384).contains(width), (16...16384).contains(height) else { return nil }
        return (width, height)
    }
}

/// A value or key the config cannot take, said in one sentence.
public struct ConfigFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension JSONValue {
    /// A number, also from text such as `"-12.5"` (the command line sends text).
    var numeric: Double? {
        switch self {
        case .number(let value): value.isFinite ? value : nil
        case .string(let text): Double(text.trimmingSpaces).flatMap { $0.isFinite ? $0 : nil }
        default: nil
        }
    }

    /// The value as TOML/JSON text, cut for a message.
    var shortText: String {
        let text = self.text
        return text.count > 40 ? String(text.prefix(40)) + "..." : text
    }
}

extension Double {
    /// `60`, `-0.5`: without a needless `.0`.
    public var plainText: String { self == rounded() && Swift.abs(self) < 1e15 ? String(Int(self)) : String(self) }
}

extension String {
    var replacingUnderscores: String { String(map { $0 == "_" ? "-" : $0 }) }
    var trimmingSpaces: Substring {
        let start = firstIndex { $0 != " " } ?? endIndex
        let end = lastIndex { $0 != " " }.map { index(after: $0) } ?? start
        return self[start ..< max(start, end)]
    }
}

/// The words a choice takes: fixed, or read each time (the modes, which the catalog registers).
public struct ChoiceWords: Sendable {
    private let read: @Sendable () -> [String]

    public init(_ words: [String]) { read = { words } }
    public init(reading: @escaping @Sendable () -> [String]) { read = reading }

    public var list: [String] { read() }
}

extension ConfigKey {
    /// The value after `current` in `cycle`: a switch's other value, a choice's next word.
    public func cycled(from current: JSONValue?) throws(ConfigFailure) -> JSONValue {
        switch kind {
        case .boolean:
            if case .bool(let flag)? = current { return .bool(!flag) }
            return .bool(true)
        case .choice(let words):
            let list = words.list
            guard !list.isEmpty else { throw ConfigFailure("\(path) has no values to cycle through") }
            let index = current?.string.flatMap { list.firstIndex(of: $0) } ?? -1
            return .string(list[(index + 1) % list.count])
        default:
            throw ConfigFailure("cycle: \(path) is not a switch or a choice of words")
        }
    }
}

extension ConfigKey {
    /// The range of a number's row (for another row with the same limits).
    public var numberRange: ClosedRange<Double>? {
        if case .number(let range) = kind { range } else { nil }
    }
}
