import DecibarCore
import DecibarRender

/// The help overlay's lines: the bindings in effect where the window is now (its own, the
/// player's while it shows, the mode's), made from the key table with the config's `[keys]` over
/// it, so what it says is what the keys do and what `decibar keys` prints.
struct HelpSheet {
    enum Entry: Equatable {
        case heading(String)
        case binding(chord: String, command: String)
    }

    let entries: [Entry]

    init(keys: KeyBindings, contexts: [KeyContext]) {
        let listing = keys.listing()
        var entries: [Entry] = []
        // A chord is listed once, where it holds: the most particular context wins.
        var shownChords = Set<KeyChord>()
        // The window's first, then the player's, then the mode's: from the general to the particular.
        for context in contexts.reversed() {
            guard let bindings = listing.first(where: { $0.context == context })?.bindings else { continue }
            let effective = bindings.filter { binding in
                keys.commandText(for: binding.chord, in: contexts) == binding.command && shownChords.insert(binding.chord).inserted
            }
            guard !effective.isEmpty else { continue }
            entries.append(.heading(OnScreenText.heading(context)))
            entries += Self.grouped(effective).map { .binding(chord: $0.chords, command: $0.command) }
        }
        self.entries = entries
    }

    /// Chords that run the same command share a line (`q, esc  close`).
    private static func grouped(_ bindings: [KeyBindings.Binding]) -> [(chords: String, command: String)] {
        var order: [String] = []
        var chords: [String: [String]] = [:]
        for binding in bindings {
            if chords[binding.command] == nil { order.append(binding.command) }
            chords[binding.command, default: []].append(binding.chord.typedName)
        }
        return order.map { (chords[$0]!.joined(separator: ", "), $0) }
    }

    /// The entries in columns of at most `rows` lines; a heading never ends a column.
    func columns(rows: Int) -> [[Entry]] {
        var columns: [[Entry]] = []
        var column: [Entry] = []
        for entry in entries {
            let isHeading = if case .heading = entry { true } else { false }
            if column.count >= rows || (isHeading && column.count >= rows - 1) {
                columns.append(column)
                column = []
            }
            column.append(entry)
        }
        if !column.isEmpty { columns.append(column) }
        return columns
    }

    /// The widest chords' width: commands line up after it.
    func chordWidth(with text: TextRenderer) -> Int {
        entries.map { entry in
            if case .binding(let chord, _) = entry { text.size(of: chord).width } else { 0 }
        }.max() ?? 0
    }

    func columnWidth(with text: TextRenderer, gap: Int) -> Int {
        let commands = entries.map { entry in
            switch entry {
            case .binding(_, let command): text.size(of: command).width
            case .heading(let heading): text.size(of: heading).width - chordWidth(with: text) - gap
            }
        }.max() ?? 0
        return chordWidth(with: text) + gap + min(commands, text.pixelSize * 14)
    }
}
