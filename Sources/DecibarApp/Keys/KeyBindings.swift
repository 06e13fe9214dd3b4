import DecibarCore

/// What each key does: a control command in `decibar ctl`'s words, per context (mpv's input.conf
/// is the model). The defaults are the table below and each mode's own keys; a config file's
/// `[keys]` section binds, rebinds or unbinds (`x = ""`) over them. Every surface hands its keys
/// here, so a window and a terminal mean the same by the same key, and `decibar keys` lists it.
public struct KeyBindings: Sendable, Equatable {
    /// One binding: a chord and the command it runs ("" unbinds).
    public struct Binding: Sendable, Equatable {
        public var chord: KeyChord
        public var command: String
    }

    /// The defaults of every window, then those while the player shows.
    static let defaults: [KeyContext: [(String, String)]] = [
        .window: [
            ("q", "close"), ("esc", "close"), ("f", "fullscreen"), ("m", "mode next"), ("s", "shader next"),
            ("shift+/", "keys"), ("f1", "keys"), ("i", "stats"), ("shift+i", "stats toggle"),
            ("/", "picker presets"), ("shift+l", "picker presets"), ("tab", "picker next"),
        ],
        .player: [
            ("space", "toggle-pause"), ("play", "toggle-pause"), ("x", "stop"), ("stop", "stop"),
            ("left", "seek -5"), ("right", "seek +5"), ("home", "seek 0"), ("end", "next"),
            ("n", "next"), ("p", "previous"), ("next", "next"), ("prev", "previous"),
            ("9", "volume -\(PlayerVolume.step.plainText)"), ("kp9", "volume -\(PlayerVolume.step.plainText)"),
            ("0", "volume +\(PlayerVolume.step.plainText)"), ("kp0", "volume +\(PlayerVolume.step.plainText)"),
            ("[", "rate -\(RateAndPitch.rateStep.plainText)"), ("]", "rate +\(RateAndPitch.rateStep.plainText)"),
            ("shift+[", "pitch -\(RateAndPitch.pitchStep.plainText)"), ("shift+]", "pitch +\(RateAndPitch.pitchStep.plainText)"),
            ("\\", "rate normal"), ("l", "cycle loop"), ("d", "cycle decibels"),
            ("=", "zoom in"), ("shift+=", "zoom in"), ("+", "zoom in"), ("kp+", "zoom in"), ("-", "zoom out"), ("kp-", "zoom out"),
            ("pgdwn", "chapter next"), ("pgup", "chapter previous"),
            ("a", "ab-loop a"), ("b", "ab-loop b"), ("shift+a", "ab-loop off"),
        ],
    ]

    /// The config file's section of bindings.
    public static let section = "keys"

    /// The config file's bindings over the defaults.
    public var overrides: KeyOverrides

    public init(_ overrides: KeyOverrides = KeyOverrides()) {
        VisualCatalog.prepare()
        self.overrides = overrides
    }

    /// Fails, saying why, for a command that `ctl` would refuse (unbinding, "", is always fine).
    public static func check(_ command: String) throws(ConfigFailure) {
        guard let arguments = try commandArguments(command) else { return }
        do {
            _ = try ControlCommand(arguments: arguments)
        } catch {
            throw ConfigFailure("\(command.quotedForMessage): \(error.message)")
        }
    }

    /// The protocol's form of a binding's command; nil for "" (unbound).
    static func commandArguments(_ command: String) throws(ConfigFailure) -> [JSONValue]? {
        let words = ControlCommandLine.words(of: command)
        guard !words.isEmpty else { return nil }
        do {
            return try ControlCommandLine.command(from: words)
        } catch {
            throw ConfigFailure("\(command.quotedForMessage): \(error.message)")
        }
    }

    /// The command `chord` runs where `contexts` hold (most particular first), if any: the
    /// config's words in a context, then its words for every context, then the defaults.
    public func command(for chord: KeyChord, in contexts: [KeyContext]) -> ControlCommand? {
        guard let text = commandText(for: chord, in: contexts),
              let arguments = try? Self.commandArguments(text) else { return nil }
        return try? ControlCommand(arguments: arguments)
    }

    func commandText(for chord: KeyChord, in contexts: [KeyContext]) -> String? {
        for context in contexts {
            if let text = overrides.perContext[context]?[chord] { return text.isEmpty ? nil : text }
        }
        if let text = overrides.everywhere[chord] { return text.isEmpty ? nil : text }
        for context in contexts {
            if let text = Self.defaultBindings(context)[chord] { return text }
        }
        return nil
    }

    /// The contexts that hold while `mode` shows, with or without the player: most particular first.
    public static func contexts(mode: VisualMode, player: Bool) -> [KeyContext] {
        [.mode(mode)] + (player ? [.player] : []) + [.window]
    }

    /// A context's own defaults (a mode's come from its description).
    static func defaultBindings(_ context: KeyContext) -> [KeyChord: String] {
        let pairs: [(String, String)]
        switch context {
        case .window, .player: pairs = defaults[context] ?? []
        case .mode(let mode): pairs = mode.keys
        }
        var table: [KeyChord: String] = [:]
        for (name, command) in pairs {
            // The defaults are this file's own spellings: a wrong one is a mistake here, caught by the tests.
            if let chord = try? KeyChord(parsing: name) { table[chord] = command }
        }
        return table
    }

    /// Every context's bindings in effect, in the order `decibar keys` prints them: the window's,
    /// the player's, then each mode's; within one, by chord. A chord the config unbinds is left out.
    public func listing() -> [(context: KeyContext, bindings: [Binding])] {
        let contexts: [KeyContext] = [.window, .player] + VisualMode.allCases.map { .mode($0) }
        return contexts.map { context in
            var table = Self.defaultBindings(context)
            for (chord, command) in overrides.everywhere where table[chord] != nil || context == .window { table[chord] = command }
            for (chord, command) in overrides.perContext[context] ?? [:] { table[chord] = command }
            let bindings = table.filter { !$0.value.isEmpty }.map { Binding(chord: $0.key, command: $0.value) }
            return (context, bindings.sorted { $0.chord.description < $1.chord.description })
        }
    }

    /// `decibar keys`: each context's bindings, a line each.
    public func listingText() -> String {
        var lines: [String] = []
        for (context, bindings) in listing() where !bindings.isEmpty {
            if !lines.isEmpty { lines.append("") }
            lines.append(Self.heading(context))
            let width = bindings.map(\.chord.description.count).max() ?? 0
            for binding in bindings {
                let name = binding.chord.description
                lines.append("  " + name + String(repeating: " ", count: width - name.count + 2) + binding.command)
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func heading(_ context: KeyContext) -> String {
        switch context {
        case .window: "In every window:"
        case .player: "While the player shows (play, and the daemon's player):"
        case .mode(let mode): "While \(mode.rawValue) shows:"
        }
    }

    /// One line per context for a command's `--help`: `m mode next, s shader next, ...`.
    public static func summary(_ context: KeyContext) -> String {
        KeyBindings().listing().first { $0.context == context }?.bindings
            .map { "\($0.chord) \($0.command)" }.joined(separator: ", ") ?? ""
    }
}
