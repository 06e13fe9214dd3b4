import DecibarCore
import DecibarRender
import Foundation

/// Where Milkdrop presets are found: the folders given (`preset_dirs`), or projectm-data's, whose
/// presets are then narrowed to the ones that draw right (`DefaultPresets`, measured by
/// Scripts/measure-presets.py) unless `all_presets` asks for all.
enum PresetLibrary {
    /// Where projectm-data puts its presets (and libprojectM finds its textures beside them).
    static let dataDirectory = "/usr/share/projectM"
    static var installedDirectory: String { dataDirectory + "/presets" }

    /// The presets under `folder` and its subfolders, sorted by their path under it.
    static func presets(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            if relative.lowercased().hasSuffix(".milk") { found.append(relative) }
        }
        let base = folder.hasSuffix("/") ? folder : folder + "/"
        return found.sorted().map { base + $0 }
    }

    /// Every preset a person can choose from (the picker's list): those in the `preset_dirs`, then
    /// every installed one, whatever the playlist holds. A name met again (projectm-data has one
    /// preset in three packs) is the first one's.
    static func catalog(_ settings: Configuration) -> [(name: String, path: String)] {
        var seen = Set<String>()
        var found: [(name: String, path: String)] = []
        for path in settings[MilkdropSettings.rows.directories].flatMap(presets(in:)) + presets(in: installedDirectory) {
            let name = PresetPlaylist.name(of: path)
            if seen.insert(name).inserted { found.append((name, path)) }
        }
        return found
    }

    /// The playlist's presets for these settings, or why there are none, in the user's terms.
    static func playlistPaths(_ settings: Configuration) throws(RenderError) -> [String] {
        if settings[MilkdropSettings.rows.list] == .favourites {
            let favourites = PresetMemoryStore.load().favourites
            guard !favourites.isEmpty else {
                throw RenderError("--preset-list favourites: no favourites yet (mark the preset shown with * in a window)")
            }
            let paths = Dictionary(catalog(settings).map { ($0.name, $0.path) }, uniquingKeysWith: { first, _ in first })
            let found = favourites.compactMap { paths[$0] }
            guard !found.isEmpty else {
                throw RenderError("--preset-list favourites: none of the \(favourites.count) favourites is installed or in a --preset-dir")
            }
            return found
        }
        let folders = settings[MilkdropSettings.rows.directories]
        if !folders.isEmpty {
            var paths: [String] = []
            for folder in folders {
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                    throw RenderError("--preset-dir \(folder): no such folder")
                }
                let found = presets(in: folder)
                if found.isEmpty { throw RenderError("--preset-dir \(folder): no .milk presets in it") }
                paths += found
            }
            return paths
        }
        let installed = presets(in: installedDirectory)
        guard !installed.isEmpty else {
            throw RenderError("Milkdrop needs presets: none in \(installedDirectory) (apt install projectm-data)")
        }
        if settings[MilkdropSettings.rows.allPresets] { return installed }
        // A name in several packs (projectm-data has one preset in three) is one preset of the
        // list: the first by path. Else `next` would move to the same picture under its own name.
        var chosen = Set(DefaultPresets.names)
        let listed = installed.filter { chosen.remove(PresetPlaylist.name(of: $0)) != nil }
        // A projectm-data whose names all changed still shows something.
        return listed.isEmpty ? installed : listed
    }

    /// Whether `--preset` or `ctl preset` names a file rather than a preset of the playlist: a
    /// path, or a .milk file in the current folder.
    static func isPath(_ text: String) -> Bool {
        text.contains("/") || (text.lowercased().hasSuffix(".milk") && FileManager.default.fileExists(atPath: text))
    }

    /// Whether the file may be handed to libprojectM (`PresetCheck`): nil, or why not.
    static func check(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: PresetCheck.limit + 1) else { return "cannot be read" }
        return PresetCheck.problem(in: data)
    }
}
