import DecibarCore
import Foundation
import TOMLKit

/// The TOML config file: `$XDG_CONFIG_HOME/decibar/config.toml`. Read whole and checked whole: a
/// file with any problem is not used at all, so a half-applied edit never happens.
public enum ConfigFile {
    /// A problem at a place in the file (`FILE:LINE:COLUMN: message`), or with the whole file
    /// (`FILE: message`: missing, unreadable, not text).
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public let path: String
        public let line: Int?
        public let column: Int?
        public let message: String
        public var description: String { place(path) + message }

        init(path: String, line: Int, column: Int, message: String) {
            (self.path, self.line, self.column, self.message) = (path, line, column, message)
        }

        init(wholeFile path: String, _ message: String) {
            (self.path, line, column, self.message) = (path, nil, nil, message)
        }

        /// `NAME:LINE:COLUMN: `, or `NAME: ` for the whole file.
        func place(_ name: String) -> String {
            guard let line, let column else { return "\(name): " }
            return "\(name):\(line):\(column): "
        }
    }

    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let problems: [Problem]
        public var description: String { problems.map(\.description).joined(separator: "\n") }
        /// The first problem with the file's name only, for the window.
        public var screenSummary: String {
            guard let first = problems.first else { return summary }
            return first.place((first.path as NSString).lastPathComponent) + first.message
        }

        /// The first problem, and how many more there are.
        public var summary: String {
            guard let first = problems.first else { return "the config file has a problem" }
            return first.description + (problems.count > 1 ? " (and \(problems.count - 1) more: decibar config check)" : "")
        }
    }

    /// `$XDG_CONFIG_HOME/decibar/config.toml`, or `~/.config/decibar/config.toml`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config + "/decibar/config.toml" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.config/decibar/config.toml"
    }

    /// Writes a config file whole (a reader never sees half of it), making its folder if needed.
    public static func write(_ text: String, to path: String) throws(CommandFailure) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let output = try PartialOutput(destination: path)
        try output.write(Array(text.utf8))
        try output.commit()
    }

    /// Reads the file at `path`; a missing file is the defaults (unless `mustExist`).
    public static func load(_ path: String, mustExist: Bool = false) throws(Failure) -> Configuration {
        guard FileManager.default.fileExists(atPath: path) else {
            if mustExist { throw Failure(problems: [Problem(wholeFile: path, "no such file")]) }
            return Configuration()
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(problems: [Problem(wholeFile: path, "cannot read the file")])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw Failure(problems: [Problem(wholeFile: path, "the file is not UTF-8 text")])
        }
        return try parse(text, path: path)
    }

    /// Checks TOML text and returns the configuration it sets.
    public static func parse(_ text: String, path: String) throws(Failure) -> Configuration {
        VisualCatalog.prepare()
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw Failure(problems: [Problem(path: path, line: error.source.begin.line, column: error.source.begin.column,
                                             message: error.description)])
        } catch {
            throw Failure(problems: [Problem(path: path, line: 1, column: 1, message: "\(error)")])
        }
        let locator = KeyLocator(text: text)
        var configuration = Configuration()
        var problems: [Problem] = []
        func problem(_ message: String, section: String?, key: String?) {
            let place = locator.place(of: key, in: section)
            problems.append(Problem(path: path, line: place.line, column: place.column, message: message))
        }
        for section in table.keys.sorted() {
            guard let entries = table[section]?.table else {
                let owner = ConfigSchema.keys.first { $0.name == section }
                problem("\(section) must be inside a section" + (owner.map { " (did you mean [\($0.section)] \(section) = ...?)" } ?? ""),
                        section: nil, key: section)
                continue
            }
            if section == KeyBindings.section {
                readKeys(entries, into: &configuration.keys, problem: problem)
                continue
            }
            guard ConfigSchema.sections.contains(section) else {
                let suggestion = Spelling.closest(to: section, among: ConfigSchema.sections + [KeyBindings.section]).map { " (did you mean [\($0)]?)" } ?? ""
                problem("unknown section [\(section)]\(suggestion)", section: section, key: nil)
                continue
            }
            for name in entries.keys.sorted() {
                do throws(ConfigFailure) {
                    let key = try ConfigSchema.key(section: section, name: name)
                    guard let value = entries[name].flatMap(json) else {
                        throw ConfigFailure("\(key.path): a date, time or table cannot be a value here")
                    }
                    try configuration.set(key, to: value)
                } catch {
                    problem(error.message, section: section, key: name)
                }
            }
        }
        guard problems.isEmpty else { throw Failure(problems: problems.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }) }
        return configuration
    }

    /// `[keys]` (every context) and its tables `[keys.player]`, `[keys.MODE]`: chord = "command".
    private static func readKeys(_ entries: TOMLTable, into keys: inout KeyOverrides,
                                 problem: (String, String?, String?) -> Void) {
        for name in entries.keys.sorted() {
            if let table = entries[name]?.table {
                let section = KeyBindings.section + "." + name
                do throws(ConfigFailure) {
                    let context = try KeyContext(parsing: name)
                    for chordName in table.keys.sorted() {
                        readKey(chordName, table[chordName], in: context, section: section, into: &keys, problem: problem)
                    }
                } catch {
                    problem(error.message, section, nil)
                }
            } else {
                readKey(name, entries[name], in: nil, section: KeyBindings.section, into: &keys, problem: problem)
            }
        }
    }

    private static func readKey(_ name: String, _ value: (any TOMLValueConvertible)?, in context: KeyContext?, section: String,
                                into keys: inout KeyOverrides, problem: (String, String?, String?) -> Void) {
        do throws(ConfigFailure) {
            let chord = try KeyChord(parsing: name)
            guard let command = value?.string else {
                throw ConfigFailure("keys: \(name) must be a command in quotes, such as \"mode spectrum\" (\"\" unbinds it)")
            }
            try KeyBindings.check(command)
            keys.bind(chord, to: command, in: context)
        } catch {
            problem("keys: " + error.message.replacingOccurrences(of: "keys: ", with: ""), section, name)
        }
    }

    /// A TOML value as JSON's kinds; nil for dates, times and tables.
    private static func json(_ value: any TOMLValueConvertible) -> JSONValue? {
        if let bool = value.bool { return .bool(bool) }
        if let int = value.int { return .number(Double(int)) }
        if let double = value.double { return .number(double) }
        if let string = value.string { return .string(string) }
        if let array = value.array {
            var items: [JSONValue] = []
            for item in array {
                guard let converted = json(item) else { return nil }
                items.append(converted)
            }
            return .array(items)
        }
        return nil
    }

    /// Finds where a key is written, for messages (the TOML library does not say where keys are).
    private struct KeyLocator {
        let lines: [Substring]

        init(text: String) {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        }

        func place(of key: String?, in section: String?) -> (line: Int, column: Int) {
            var current: String?
            var sectionLine: (Int, Int)?
            for (index, line) in lines.enumerated() {
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                let column = line.count - trimmed.count + 1
                if trimmed.hasPrefix("[") {
                    current = String(trimmed.dropFirst().prefix { $0 != "]" }).trimmingCharacters(in: .whitespaces)
                    if current == section && key == nil { return (index + 1, column) }
                    if current == section { sectionLine = (index + 1, column) }
                    continue
                }
                guard let key, current == section else { continue }
                let name = trimmed.prefix { $0 != "=" && $0 != " " && $0 != "\t" }
                if name == key || name == "\"\(key)\"" { return (index + 1, column) }
            }
            return sectionLine ?? (1, 1)
        }
    }
}
