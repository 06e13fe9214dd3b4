@testable import DecibarApp
import DecibarCore
import Testing

@Suite("Key bindings: one table of commands per context, over which the config file's [keys] goes")
struct KeyBindingsTests {
    private func command(_ keys: KeyBindings, _ chord: String, mode: String = "bars", player: Bool = false) throws -> ControlCommand? {
        keys.command(for: try KeyChord(parsing: chord), in: KeyBindings.contexts(mode: VisualMode(registered: mode), player: player))
    }

    @Test("every default binding names a key and a command ctl takes")
    func defaultsAreValid() throws {
        VisualCatalog.prepare()
        let contexts = [KeyContext.window, .player] + VisualMode.allCases.map { KeyContext.mode($0) }
        for context in contexts {
            let pairs: [(String, String)] = if case .mode(let mode) = context { mode.keys } else { KeyBindings.defaults[context] ?? [] }
            #expect(!pairs.isEmpty || context != .window)
            for (name, text) in pairs {
                #expect(throws: Never.self, "\(context) \(name)") { _ = try KeyChord(parsing: name) }
                #expect(throws: Never.self, "\(context) \(name): \(text)") { try KeyBindings.check(text) }
            }
        }
    }

    @Test("the more particular context wins: Milkdrop's n over the player's, the player's over none")
    func contexts() throws {
        let keys = KeyBindings()
        #expect(try command(keys, "m") == .mode(.next))
        #expect(try command(keys, "n") == nil)
        #expect(try command(keys, "n", player: true) == .next)
        #expect(try command(keys, "n", mode: "milkdrop", player: true) == .preset(.next))
        #expect(try command(keys, "l", mode: "milkdrop", player: true) == .preset(.toggleLock))
        #expect(try command(keys, "l", player: true) == .cycle(key: "loop"))
        #expect(try command(keys, "shift+[", player: true) == .pitch(.by(-100)))
        #expect(try command(keys, "{", player: true) == .pitch(.by(-100)))
        #expect(try command(keys, "9", player: true) == .volume(.by(-5)))
        #expect(try command(keys, "esc") == .close)
        #expect(try command(keys, "shift+a", player: true) == .abLoopOff)
    }

    @Test("[keys] binds, rebinds and unbinds; [keys.player] holds only there; the listing shows what is in effect")
    func configFile() throws {
        let file = try ConfigFile.parse("""
            [keys]
            k = "mode spectrum"
            m = ""
            "ctrl+n" = "preset next"
            [keys.player]
            space = "stop"
            """, path: "c.toml")
        let keys = KeyBindings(file.keys)
        #expect(try command(keys, "k") == .mode(.named("spectrum")))
        #expect(try command(keys, "m") == nil)
        #expect(try command(keys, "ctrl+n") == .preset(.next))
        #expect(try command(keys, "space", player: true) == .stop)
        #expect(try command(keys, "space") == nil)
        let listing = keys.listingText()
        #expect(listing.contains("  k        mode spectrum\n"), "\(listing)")
        #expect(!listing.contains("mode next"))
        #expect(listing.contains("  ctrl+n   preset next\n"))
        #expect(listing.contains("While the player shows"))
        #expect(listing.contains("While milkdrop shows:\n"))
        // config show prints them back, in a form the file takes again.
        let shown = file.text(effective: true)
        #expect(shown.contains("[keys]\n\"ctrl+n\" = \"preset next\"\n\"k\" = \"mode spectrum\"\n\"m\" = \"\"\n"), "\(shown)")
        #expect(try ConfigFile.parse(shown, path: "again.toml").keys == file.keys)
    }

    @Test("an unknown command, key name or context is one line naming it, at its place in the file")
    func mistakes() throws {
        func problems(_ text: String) -> [String] {
            do {
                _ = try ConfigFile.parse(text, path: "c.toml")
                return []
            } catch {
                return error.problems.map(\.description)
            }
        }
        #expect(problems("[keys]\nk = \"pase\"\n") == ["c.toml:2:1: keys: \"pase\": no command 'pase' (did you mean pause?); see 'decibar ctl --help'"])
        #expect(problems("[keys]\nkk = \"mode next\"\n") == ["c.toml:2:1: keys: no key \"kk\" (did you mean k?)"])
        #expect(problems("[keys]\nk = \"mode sparkle\"\n") == ["c.toml:2:1: keys: \"mode sparkle\": mode takes next, previous or one of bars, spectrum, spectrogram, scope, meter, milkdrop"])
        #expect(problems("[keys]\nk = \"mode\"\n") == ["c.toml:2:1: keys: \"mode\": mode takes next, previous or one of bars, spectrum, spectrogram, scope, meter, milkdrop"])
        #expect(problems("[keys]\nk = 5\n") == ["c.toml:2:1: keys: k must be a command in quotes, such as \"mode spectrum\" (\"\" unbinds it)"])
        #expect(problems("[keys.playr]\nk = \"stop\"\n").first?.hasPrefix("c.toml:1:1: no key context \"playr\"") == true)
        #expect(problems("[keys]\n\"hyper+k\" = \"stop\"\n") == ["c.toml:2:1: keys: no modifier \"hyper\" in \"hyper+k\" (ctrl, alt, shift or meta)"])
    }

    @Test("chords read in any order and case, and are written one way")
    func chords() throws {
        #expect(try KeyChord(parsing: "Shift+Ctrl+N").description == "ctrl+shift+n")
        #expect(try KeyChord(parsing: "A") == KeyChord("a", .shift))
        #expect(try KeyChord(parsing: "ctrl++") == KeyChord("+", .ctrl))
        #expect(try KeyChord(parsing: "kp+") == KeyChord("kp+"))
        #expect(try KeyChord(parsing: "Escape") == KeyChord("esc"))
        #expect(try KeyChord(parsing: "PageDown") == KeyChord("pgdwn"))
    }
}
