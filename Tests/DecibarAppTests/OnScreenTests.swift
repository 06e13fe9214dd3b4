@testable import DecibarApp
import DecibarCore
import Foundation
import Testing

@Suite("On-screen display: the help sheet from the key table, the search's folding, the kept favourites")
struct OnScreenTests {
    private func chords(_ sheet: HelpSheet) -> [String: String] {
        var table: [String: String] = [:]
        for case .binding(let chord, let command) in sheet.entries { table[command] = chord }
        return table
    }

    @Test("the sheet lists what the keys do where the window is: the window's, the player's while it shows, the mode's")
    func helpSheet() throws {
        VisualCatalog.prepare()
        let bars = HelpSheet(keys: KeyBindings(), contexts: KeyBindings.contexts(mode: VisualMode(registered: "bars"), player: false))
        let table = chords(bars)
        #expect(table["keys"] == "f1, ?")
        #expect(table["fullscreen"] == "f")
        #expect(table["mode next"] == "m")
        #expect(table["preset next"] == nil)
        #expect(table["toggle-pause"] == nil)
        #expect(bars.entries.first == .heading("Window"))

        let milkdrop = chords(HelpSheet(keys: KeyBindings(), contexts: KeyBindings.contexts(mode: .milkdrop, player: true)))
        #expect(milkdrop["preset next"] == "n")
        #expect(milkdrop["preset toggle-favourite"] == "*")
        #expect(milkdrop["toggle-pause"] == "play, space")
        // n is Milkdrop's while it shows: the player's next keeps only its other keys.
        #expect(milkdrop["next"] == "end, next")

        var overrides = KeyOverrides()
        overrides.bind(KeyChord("g"), to: "cycle theme")
        overrides.bind(KeyChord("f"), to: "")
        let bound = chords(HelpSheet(keys: KeyBindings(overrides), contexts: KeyBindings.contexts(mode: VisualMode(registered: "bars"), player: false)))
        #expect(bound["cycle theme"] == "g")
        #expect(bound["fullscreen"] == nil)
    }

    @Test("columns never end on a heading and hold at most the rows asked")
    func columns() {
        let sheet = HelpSheet(keys: KeyBindings(), contexts: KeyBindings.contexts(mode: .milkdrop, player: true))
        let columns = sheet.columns(rows: 8)
        #expect(columns.allSatisfy { $0.count <= 8 })
        #expect(columns.allSatisfy { if case .heading = $0.last { false } else { true } })
        #expect(columns.flatMap { $0 } == sheet.entries)
    }

    @Test("the search folds case and accents")
    func folding() {
        let search = PickerSearch(names: ["Café Électrique", "Cafe", "ÜBER"], fold: OnScreenText.fold)
        #expect(search.matches("electr cafe") == [0])
        #expect(search.matches("CAFÉ") == [1, 0])
        #expect(search.matches("uber") == [2])
    }

    @Test("favourites are kept; a damaged file is one warning, set aside, and a fresh list")
    func kept() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/state/decibar/presets.json"
        var memory = PresetMemory()
        memory.toggleFavourite("Geiss - Luz")
        #expect(PresetMemoryStore.save(memory, to: path) == nil)
        var warnings: [String] = []
        #expect(PresetMemoryStore.load(from: path) { warnings.append($0) } == memory)
        #expect(warnings.isEmpty)
        // No leftovers of the write beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path + "/state/decibar") == ["presets.json"])

        try Data((0 ..< 300).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: URL(fileURLWithPath: path))
        #expect(PresetMemoryStore.load(from: path) { warnings.append($0) } == PresetMemory())
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("damaged") == true)
        #expect(FileManager.default.fileExists(atPath: path + ".damaged"))
        #expect(PresetMemoryStore.load(from: path) { warnings.append($0) } == PresetMemory())
        #expect(warnings.count == 1)
    }
}
