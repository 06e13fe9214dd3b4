@testable import DecibarApp
import DecibarCore
import Foundation
import Testing

/// The default Milkdrop list against projectm-data as installed: every name is there, and a
/// render's seed starts on a different preset most of the time.
@Suite("Milkdrop's default list")
struct DefaultPresetsTests {
    @Test("every name of the list is an installed preset, once; it holds at least 1,000")
    func installed() throws {
        let paths = try PresetLibrary.playlistPaths(Configuration())
        let names = paths.map(PresetPlaylist.name(of:))
        #expect(Set(names).count == names.count, "a name twice")
        #expect(Set(names) == Set(DefaultPresets.names), "\(Set(DefaultPresets.names).subtracting(names).prefix(5)) are not installed")
        #expect(names.count >= 1000, "\(names.count) presets")
    }

    @Test("render --seed 1 to 20 starts on at least 15 different presets")
    func seedsSpread() throws {
        let paths = try PresetLibrary.playlistPaths(Configuration())
        let firsts = (1 ... 20).compactMap { PresetPlaylist(paths: paths, shuffled: false, seed: UInt64($0)).current }
        #expect(Set(firsts).count >= 15, "\(Set(firsts).count) different presets: \(firsts.map(PresetPlaylist.name(of:)))")
    }
}
