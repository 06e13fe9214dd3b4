import DecibarCore
import DecibarRender
import Foundation

/// Where libprojectM looks for the textures presets name, beyond projectm-data's: one private
/// folder it is given, holding a link to each `--texture-dir` folder (it follows links and searches
/// subfolders) and, for a texture found nowhere, a stand-in: a link by that name to an installed
/// texture, so the preset draws with what is found instead of failing to compile (libprojectM 3.1
/// drops a missing texture's sampler from the shader). Removed with this value.
final class TextureSearchPath {
    /// The folder the library is given.
    let path: String
    /// Every link made in it, to remove exactly those.
    private var links: [String] = []
    /// Textures that stand-ins may point at: projectm-data's, then the user's, sorted.
    private let installed: [String]

    /// The file kinds libprojectM reads textures from.
    static let extensions = [".jpg", ".dds", ".png", ".tga", ".bmp", ".dib"]

    init(folders: [String], dataDirectory: String) throws(RenderError) {
        var absolute: [String] = []
        for folder in folders {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
                throw RenderError("--texture-dir \(folder): no such folder")
            }
            absolute.append(folder.hasPrefix("/") ? folder : FileManager.default.currentDirectoryPath + "/" + folder)
        }
        installed = ([dataDirectory + "/presets", dataDirectory + "/textures"] + absolute).flatMap(Self.textures(in:))
        let base = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.temporaryDirectory.path
        path = base + "/decibar-textures-\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0 ... .max))"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            for (index, folder) in absolute.enumerated() {
                try link(path + "/\(index + 1)", to: folder)
            }
        } catch {
            removeAll()
            throw RenderError("--texture-dir: cannot gather the texture folders in \(path): \(error.localizedDescription)")
        }
    }

    deinit {
        removeAll()
    }

    /// Gives each named texture a stand-in from the installed ones (the same for a name on every
    /// machine with the same textures). Returns the names given one, with the texture each stands
    /// for; empty when none could be (no texture installed, or a name that is not a file name).
    func makeStandIns(for names: [String]) -> [(name: String, standIn: String)] {
        guard !installed.isEmpty else { return [] }
        var made: [(name: String, standIn: String)] = []
        for name in names where !name.isEmpty && name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) {
            let target = installed[Int(Self.hash(name.lowercased()) % UInt64(installed.count))]
            let suffix = Self.extensions.first { target.lowercased().hasSuffix($0) } ?? ".png"
            let place = path + "/" + name + suffix
            if !FileManager.default.fileExists(atPath: place) {
                guard (try? link(place, to: target)) != nil else { continue }
            }
            made.append((name, String(target.split(separator: "/").last ?? "")))
        }
        return made
    }

    private func link(_ place: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: place, withDestinationPath: target)
        links.append(place)
    }

    /// Each link, then the folder once empty: never a removal that could reach through a link
    /// into the user's folders.
    private func removeAll() {
        for link in links { try? FileManager.default.removeItem(atPath: link) }
        links.removeAll()
        if (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty ?? false {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    private static func textures(in folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        var found: [String] = []
        while let relative = walker.nextObject() as? String {
            let lowered = relative.lowercased()
            if extensions.contains(where: lowered.hasSuffix) { found.append(folder + "/" + relative) }
        }
        return found.sorted()
    }

    /// FNV-1a: a stable choice, unlike Swift's seeded `hashValue`.
    private static func hash(_ text: String) -> UInt64 {
        text.utf8.reduce(14_695_981_039_346_656_037) { ($0 ^ UInt64($1)) &* 1_099_511_628_211 }
    }
}
