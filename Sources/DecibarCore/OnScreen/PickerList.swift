/// A list over the picture to choose from (presets, sources, modes, themes): what is typed filters
/// it, the arrows, pages, Home and End move the selection, and it scrolls to keep the selection
/// in sight. Pure state: the window draws it and hands it keys, clicks and the wheel.
public struct PickerList: Sendable {
    /// One line of the list: what it shows, and what choosing it does (a control command's argument).
    public struct Entry: Sendable, Equatable {
        public var name: String
        public var value: String
        /// Marked (a favourite, the source heard now).
        public var isMarked: Bool

        public init(name: String, value: String, isMarked: Bool = false) {
            self.name = name
            self.value = value
            self.isMarked = isMarked
        }
    }

    public let kind: PickerKind
    public private(set) var entries: [Entry]
    private var search: PickerSearch
    private let fold: PickerSearch.Folding
    public private(set) var query = ""
    /// The entries the query keeps, best first (indices into `entries`).
    public private(set) var shown: [Int]
    /// The selected line, an index into `shown`.
    public private(set) var selection = 0
    /// The first line in sight.
    public private(set) var top = 0
    /// How many lines are in sight (the window's layout sets it).
    public var rows = 10 {
        didSet { rows = max(1, rows); scrollToSelection() }
    }

    /// Starts on the entry named `selectingName` (the preset shown), when there is one.
    public init(kind: PickerKind, entries: [Entry], selectingName: String? = nil, fold: @escaping PickerSearch.Folding) {
        self.kind = kind
        self.entries = entries
        self.fold = fold
        search = PickerSearch(names: entries.map(\.name), fold: fold)
        shown = Array(entries.indices)
        if let selectingName, let index = entries.firstIndex(where: { $0.name == selectingName }) { selection = index }
        scrollToSelection()
    }

    /// The entry Enter would choose.
    public var selected: Entry? { shown.indices.contains(selection) ? entries[shown[selection]] : nil }

    /// The lines in sight: (row, entry, selected).
    public var visible: [(row: Int, entry: Entry, isSelected: Bool)] {
        guard top < shown.count else { return [] }
        return (top ..< min(shown.count, top + rows)).map { ($0 - top, entries[shown[$0]], $0 == selection) }
    }

    public mutating func type(_ text: String) { setQuery(query + text) }

    public mutating func deleteBackward() {
        guard !query.isEmpty else { return }
        setQuery(String(query.dropLast()))
    }

    public mutating func setQuery(_ text: String) {
        query = text
        shown = search.matches(text)
        selection = 0
        top = 0
    }

    /// Moves the selection by lines (negative: up), stopping at the ends.
    public mutating func move(by lines: Int) {
        guard !shown.isEmpty else { return }
        selection = min(shown.count - 1, max(0, selection + lines))
        scrollToSelection()
    }

    public mutating func page(by pages: Int) { move(by: pages * max(1, rows - 1)) }
    public mutating func moveToStart() { move(by: -shown.count) }
    public mutating func moveToEnd() { move(by: shown.count) }

    /// Scrolls the lines in sight without moving past the ends (the wheel); the selection follows
    /// into sight.
    public mutating func scroll(by lines: Int) {
        top = max(0, min(max(0, shown.count - rows), top + lines))
        selection = min(max(selection, top), min(shown.count - 1, top + rows - 1))
    }

    /// Selects the line in sight at `row` (a click); false for a row with no line.
    public mutating func select(row: Int) -> Bool {
        guard row >= 0, row < rows, top + row < shown.count else { return false }
        selection = top + row
        return true
    }

    /// Marks or unmarks the entry named `name` (a favourite).
    public mutating func setMarked(_ marked: Bool, name: String) {
        for index in entries.indices where entries[index].name == name { entries[index].isMarked = marked }
    }

    /// New entries (the sources changed), the query, and the selection when its entry remains.
    public mutating func replaceEntries(_ newEntries: [Entry]) {
        guard newEntries != entries else { return }
        let kept = selected?.value
        entries = newEntries
        search = PickerSearch(names: entries.map(\.name), fold: fold)
        shown = search.matches(query)
        selection = kept.flatMap { value in shown.firstIndex { entries[$0].value == value } } ?? 0
        scrollToSelection()
    }

    private mutating func scrollToSelection() {
        if selection < top { top = selection }
        if selection >= top + rows { top = selection - rows + 1 }
        top = max(0, min(top, max(0, shown.count - rows)))
    }
}
