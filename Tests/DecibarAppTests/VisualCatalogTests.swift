@testable import DecibarApp
import DecibarCore
import DecibarRender
import Foundation
import Testing

/// A mode of the test's own: nothing but what a mode must say and do.
private final class ChequerVisual: Visual {
    static let mode = VisualModeDescription(name: "chequer", summary: "a test's own squares", keys: [("c", "preset next")])
    init(tools: VisualTools) throws(RenderError) {}
    var needs: VisualNeeds { [] }
    var isAtRest: Bool { true }
    var meanValue: Float { 0 }
    func update(_ frame: VisualFrame) {}
    func draw(_ canvas: VisualCanvas) {}
}

@Suite("The catalog is the one list of modes: help, keys and m's cycle come from it")
struct VisualCatalogTests {
    @Test("the help texts name every mode of m's cycle, in its order")
    func helpNamesEveryMode() {
        VisualCatalog.prepare()
        let names = VisualMode.allCases.map(\.rawValue)
        #expect(names == VisualCatalog.builtIn.map { $0.mode.name })
        #expect(CommandHelp.ctl.contains("mode next|previous|" + names.joined(separator: "|")))
        #expect(CommandHelp.live.contains("(the modes in m's order: " + names.joined(separator: ", ") + ")"))
        for name in names {
            #expect(ConfigSchema.display.mode.key.help.contains("\(name) ("))
            #expect(KeyBindings().listingText().contains(name) || VisualMode(registered: name).keys.isEmpty)
        }
    }

    @Test("docs/modes.md names the modes in m's order, and each has a section there")
    func modesPage() throws {
        VisualCatalog.prepare()
        let page = try String(contentsOfFile: SettingsTableTests.repository + "/docs/modes.md", encoding: .utf8)
        let flat = page.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let names = VisualMode.allCases.map(\.rawValue)
        #expect(flat.contains("`m` moves to the next (" + names.joined(separator: ", ") + ";"), "docs/modes.md lists the modes as the catalog does")
    }

    @Test("a mode registered through the catalog is in --mode's values, ctl --help, the keys listing and m's cycle")
    func registeredMode() throws {
        VisualCatalog.prepare()
        VisualCatalog.register(ChequerVisual.self)
        defer { VisualCatalog.unregister(ChequerVisual.self) }
        let chequer = try #require(VisualMode(rawValue: "chequer"))
        #expect(ConfigSchema.display.mode.key.words?.contains("chequer") == true)
        #expect(ConfigSchema.display.mode.key.help.contains("chequer (a test's own squares)"))
        var configuration = Configuration()
        try configuration.set("mode", to: .string("chequer"))
        #expect(configuration[ConfigSchema.display.mode] == chequer)
        #expect(CommandHelp.ctl.contains("|milkdrop|chequer;"))
        #expect(KeyBindings().listingText().contains("While chequer shows:\n  c  preset next\n"))
        #expect(CommandHelp.live.contains("; while chequer shows: c preset next"))
        // m's cycle: after the last built-in mode, then back to the first.
        #expect(VisualMode(registered: "milkdrop").next == chequer)
        #expect(chequer.next == VisualMode(registered: "bars"))
        #expect(KeyBindings().command(for: KeyChord("c"), in: KeyBindings.contexts(mode: chequer, player: true)) == .preset(.next))
    }
}
