/// A key with the modifiers held, as a binding names it: `m`, `shift+a`, `ctrl+n`, `space`, `kp9`.
/// Every surface reports keys this way (the window's adapter translates its own codes), so one
/// table of bindings serves them all.
public struct KeyChord: Hashable, Sendable, CustomStringConvertible {
    public struct Modifiers: OptionSet, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let ctrl = Modifiers(rawValue: 1)
        public static let alt = Modifiers(rawValue: 2)
        public static let shift = Modifiers(rawValue: 4)
        public static let meta = Modifiers(rawValue: 8)

        /// In the order a chord is written.
        static let named: [(name: String, modifier: Modifiers)] = [("ctrl", .ctrl), ("alt", .alt), ("shift", .shift), ("meta", .meta)]
    }

    /// The key's name, one of `names`.
    public let key: String
    public let modifiers: Modifiers

    public init(_ key: String, _ modifiers: Modifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }

    /// Every key a binding can name: letters and digits, the US layout's punctuation (what the key
    /// types without Shift), the named keys, the keypad's and the media keys.
    public static let names: [String] = {
        var names = (UInt8(ascii: "a")...UInt8(ascii: "z")).map { String(UnicodeScalar($0)) }
        names += (0...9).map(String.init)
        names += ["-", "=", "[", "]", "\\", ";", "'", ",", ".", "/", "`", "+"]
        names += ["space", "enter", "esc", "tab", "backspace", "insert", "delete", "left", "right", "up", "down",
                  "home", "end", "pgup", "pgdwn"]
        names += (1...12).map { "f\($0)" }
        names += (0...9).map { "kp\($0)" } + ["kp+", "kp-", "kp*", "kp/", "kp.", "kpenter"]
        names += ["play", "stop", "next", "prev", "mute", "volume-up", "volume-down"]
        return names
    }()

    /// Other spellings a config file may use: what a key types with Shift on a US layout stands for
    /// Shift and that key (`A` is `shift+a`, `{` is `shift+[`), and a few long names.
    static let aliases: [String: KeyChord] = {
        var aliases: [String: KeyChord] = [
            "escape": KeyChord("esc"), "return": KeyChord("enter"), "pageup": KeyChord("pgup"), "pagedown": KeyChord("pgdwn"),
            "pgdown": KeyChord("pgdwn"), "del": KeyChord("delete"), "ins": KeyChord("insert"), "previous": KeyChord("prev"),
        ]
        let shifted = Array("~!@#$%^&*()_{}|:\"<>?")
        let plain = Array("`1234567890-[]\\;',./")
        for (typed, key) in zip(shifted, plain) { aliases[String(typed)] = KeyChord(String(key), .shift) }
        for letter in UInt8(ascii: "A")...UInt8(ascii: "Z") {
            aliases[String(UnicodeScalar(letter))] = KeyChord(String(UnicodeScalar(letter)).lowercased(), .shift)
        }
        return aliases
    }()

    /// Reads `ctrl+shift+n`, `A`, `{`, `kp+`, `ctrl++`; fails for a name that is not a key, naming it.
    public init(parsing text: String) throws(ConfigFailure) {
        var rest = Substring(text)
        var modifiers: Modifiers = []
        while let plus = rest.firstIndex(of: "+"), plus != rest.startIndex, rest.index(after: plus) != rest.endIndex {
            let word = rest[..<plus].lowercased()
            guard let modifier = Modifiers.named.first(where: { $0.name == word })?.modifier
                    ?? (word == "control" ? .ctrl : word == "super" || word == "win" ? .meta : nil) else {
                // `kp+`: the plus is the key's own.
                if rest.hasPrefix("kp+") && rest.count == 3 { break }
                throw ConfigFailure("no modifier \(String(word).quotedForMessage) in \(text.quotedForMessage) (ctrl, alt, shift or meta)")
            }
            modifiers.insert(modifier)
            rest = rest[rest.index(after: plus)...]
        }
        let name = String(rest)
        if Self.names.contains(name) {
            self.init(name, modifiers)
        } else if let alias = Self.aliases[name] {
            self.init(alias.key, modifiers.union(alias.modifiers))
        } else if Self.names.contains(name.lowercased()) && name.count > 1 {
            self.init(name.lowercased(), modifiers)
        } else if let alias = Self.aliases[name.lowercased()] {
            self.init(alias.key, modifiers.union(alias.modifiers))
        } else {
            let suggestion = Spelling.closest(to: name, among: Self.names).map { " (did you mean \($0)?)" } ?? ""
            throw ConfigFailure("no key \(name.quotedForMessage)\(suggestion)")
        }
    }

    /// `ctrl+shift+n`: modifiers in a fixed order, then the key.
    public var description: String {
        Modifiers.named.filter { modifiers.contains($0.modifier) }.map { $0.name + "+" }.joined() + key
    }

    /// How a person reads it on screen: what the key types with Shift (`?`, `L`, `*`) where there
    /// is one, else the chord as a binding names it.
    public var typedName: String {
        if modifiers == .shift, let typed = Self.typedWithShift[key] { return typed }
        return description
    }

    private static let typedWithShift: [String: String] = {
        var names: [String: String] = [:]
        for (typed, chord) in aliases where chord.modifiers == .shift && typed.count == 1 { names[chord.key] = typed }
        return names
    }()
}
