@testable import DecibarCore
import Testing

/// The lists' search folds case only here (the app folds accents with Foundation; its own test
/// covers that).
private let lowercase: PickerSearch.Folding = { $0.lowercased() }

@Suite("On-screen display: the lists' search and moves, the kept favourites, the frame figures")
struct OnScreenCoreTests {
    private let names = ["Geiss - Luz", "Rovastar & Geiss - Hurricane Nightmare", "Flexi - mindblob", "geiss toy", "Zylot - Geissy Days",
                         "Aderrasi - Agitator"]

    @Test("every word of the query in any order; the start of the name, then of a word, then inside one; shorter first")
    func search() {
        let search = PickerSearch(names: names, fold: lowercase)
        #expect(search.matches("") == [0, 1, 2, 3, 4, 5])
        // "geiss" starts 0 and 3 (3 is longer? no: "geiss toy" is 9, "Geiss - Luz" 11), starts a word in 1, inside one in none,
        // and starts a word in 4 ("Geissy").
        #expect(search.matches("geiss") == [3, 0, 4, 1])
        #expect(search.matches("GEISS luz") == [0])
        #expect(search.matches("night geiss") == [1])
        #expect(search.matches("blob") == [2])
        #expect(search.matches("nothing here") == [])
        #expect(PickerSearch.place(of: Array("ob".utf8), in: Array("mindblob".utf8)) == 2)
        #expect(PickerSearch.place(of: Array("bl".utf8), in: Array("mind blob".utf8)) == 1)
    }

    @Test("the selection moves and stops at the ends; the list scrolls to keep it in sight; typing filters")
    func listMoves() {
        var list = PickerList(kind: .presets, entries: names.map { .init(name: $0, value: "/p/\($0).milk") }, selectingName: "Flexi - mindblob",
                              fold: lowercase)
        list.rows = 3
        #expect(list.selected?.name == "Flexi - mindblob")
        #expect(list.top == 0)
        list.move(by: 2)
        #expect(list.selection == 4)
        #expect(list.top == 2)
        list.move(by: 10)
        #expect(list.selection == 5)
        list.page(by: -1)
        #expect(list.selection == 3)
        list.moveToStart()
        #expect((list.selection, list.top) == (0, 0))
        list.moveToEnd()
        #expect((list.selection, list.top) == (5, 3))
        list.scroll(by: -2)
        #expect(list.top == 1)
        #expect(list.selection == 3)
        let selections = [list.select(row: 0), list.select(row: 3)]
        #expect(selections == [true, false])
        #expect(list.selected?.name == names[1])
        list.type("gei")
        list.type("ss l")
        // "l" is in "Zylot" too.
        #expect(list.shown == [0, 4])
        list.type("u")
        #expect(list.shown == [0])
        #expect(list.selected?.value == "/p/Geiss - Luz.milk")
        for _ in 0 ..< 3 { list.deleteBackward() }
        #expect(list.query == "geiss")
        #expect(list.shown.count == 4)
        #expect(list.visible.map(\.row) == [0, 1, 2])
        list.setMarked(true, name: "geiss toy")
        #expect(list.visible.first?.entry.isMarked == true)
    }

    @Test("new entries keep the query and the selected entry")
    func replacedEntries() {
        var list = PickerList(kind: .sources, entries: [.init(name: "Default output", value: "default"), .init(name: "App: mpv", value: "app:mpv")],
                              fold: lowercase)
        list.move(by: 1)
        list.replaceEntries([.init(name: "Default output", value: "default"), .init(name: "App: marker", value: "app:marker"),
                             .init(name: "App: mpv", value: "app:mpv")])
        #expect(list.selected?.value == "app:mpv")
        list.type("mark")
        #expect(list.selected?.value == "app:marker")
    }

    @Test("choosing in each list is the commands ctl would send")
    func choices() {
        #expect(PickerKind.presets.commands(choosing: "/p/a.milk") == [.preset(.named("/p/a.milk"))])
        #expect(PickerKind.modes.commands(choosing: "scope") == [.mode(.named("scope"))])
        #expect(PickerKind.themes.commands(choosing: "fire") == [.set(key: "display.theme", value: .string("fire"))])
        #expect(PickerKind.sources.commands(choosing: "app:marker") == [.set(key: "audio.source", value: .null),
                                                                          .set(key: "audio.apps", value: .array([.string("marker")]))])
        #expect(PickerKind.sources.commands(choosing: "viz") == [.set(key: "audio.apps", value: .array([])),
                                                                   .set(key: "audio.source", value: .string("viz"))])
        #expect(PickerKind.presets.next == .sources)
        #expect(PickerKind.themes.next == .presets)
    }

    @Test("favourites and the recent list round-trip; a damaged file is refused with a reason")
    func memory() throws {
        var memory = PresetMemory()
        let marked = [memory.toggleFavourite("Geiss - Luz"), memory.toggleFavourite("Flexi - mindblob"), memory.toggleFavourite("Geiss - Luz")]
        #expect(marked == [true, true, false])
        for index in 0 ..< 60 { memory.chose("preset \(index)") }
        memory.chose("preset 3")
        #expect(memory.recent.count == PresetMemory.recentLimit)
        #expect(memory.recent.first == "preset 3")
        #expect(memory.recent.filter { $0 == "preset 3" }.count == 1)
        let read = try PresetMemory(json: memory.json)
        #expect(read == memory)
        #expect(read.favourites == ["Flexi - mindblob"])
        #expect(throws: ConfigFailure.self) { try PresetMemory(json: Array("\u{7}\u{0}garbage".utf8)) }
        #expect(throws: ConfigFailure.self) { try PresetMemory(json: Array(#"{"version": 2}"#.utf8)) }
        #expect(throws: ConfigFailure.self) { try PresetMemory(json: Array(#"{"version": 1, "favourites": [3]}"#.utf8)) }
        #expect(try PresetMemory(json: Array(#"{"version": 1}"#.utf8)) == PresetMemory())
    }

    @Test("frames a second, median and p90 frame time, late frames: over the last second only")
    func frameFigures() throws {
        var statistics = FrameStatistics()
        #expect(statistics.summary(at: 0) == nil)
        // Two seconds at 50 frames a second; the first second's frames took 30 ms, the second's 2..11 ms.
        for index in 0 ..< 100 {
            let start = Double(index) * 0.02
            statistics.record(start: start, duration: index < 50 ? 0.03 : Double(2 + index % 10) / 1000, isLate: index == 20 || index == 70)
        }
        let summary = try #require(statistics.summary(at: 1.98))
        #expect(abs(summary.framesPerSecond - 50) < 1e-9)
        #expect(summary.lateFrames == 1)
        // The 51 frames from 0.98 s: one of 30 ms, fifty of 2..11 ms (five of each).
        #expect(summary.medianFrameTime == 0.007)
        #expect(summary.p90FrameTime == 0.011)
        // The ring wraps without losing the figures.
        for index in 0 ..< 3000 { statistics.record(start: 10 + Double(index) / 1000, duration: 0.001, isLate: false) }
        let fast = try #require(statistics.summary(at: 12.999))
        #expect(abs(fast.framesPerSecond - 1000) < 1)
    }

    @Test("a dropped file:// address becomes its path, percent escapes decoded; other text stays")
    func dropped() {
        #expect(MediaLocation.dropped("file:///home/a/My%20Song%C3%A9.flac") == "/home/a/My Songé.flac")
        #expect(MediaLocation.dropped("file://localhost/tmp/a.wav") == "/tmp/a.wav")
        #expect(MediaLocation.dropped("  https://radio.example/stream?x=%20  ") == "https://radio.example/stream?x=%20")
        #expect(MediaLocation.dropped("/tmp/plain.flac") == "/tmp/plain.flac")
        #expect(MediaLocation.dropped("file:///tmp/bad%zz") == "/tmp/bad%zz")
    }

    @Test("keys, stats and picker are commands ctl can send; preset with nothing names the one shown")
    func commands() throws {
        #expect(try ControlCommand(arguments: [.string("keys")]) == .keys)
        #expect(try ControlCommand(arguments: [.string("stats")]) == .stats(toggles: false))
        #expect(try ControlCommand(arguments: [.string("stats"), .string("toggle")]) == .stats(toggles: true))
        #expect(try ControlCommand(arguments: [.string("picker"), .string("sources")]) == .picker(.open(.sources)))
        #expect(try ControlCommand(arguments: [.string("picker"), .string("next")]) == .picker(.next))
        #expect(try ControlCommand(arguments: [.string("preset")]) == .preset(.shown))
        #expect(try ControlCommand(arguments: [.string("preset"), .string("toggle-favourite")]) == .preset(.toggleFavourite))
        #expect(throws: ControlFailure.self) { try ControlCommand(arguments: [.string("picker"), .string("colours")]) }
        #expect(throws: ControlFailure.self) { try ControlCommand(arguments: [.string("stats"), .string("on")]) }
    }

    @Test("a chord reads as it is typed on screen: ?, L, * for their shifted keys")
    func typedNames() throws {
        #expect(try KeyChord(parsing: "?").typedName == "?")
        #expect(try KeyChord(parsing: "shift+l").typedName == "L")
        #expect(try KeyChord(parsing: "*").typedName == "*")
        #expect(try KeyChord(parsing: "ctrl+n").typedName == "ctrl+n")
        #expect(try KeyChord(parsing: "f1").typedName == "f1")
    }
}
