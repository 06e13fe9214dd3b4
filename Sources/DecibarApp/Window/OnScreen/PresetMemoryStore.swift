import DecibarCore
import Foundation

/// Where the favourite and recent presets are kept between runs: `$XDG_STATE_HOME/decibar/presets.json`
/// (else `~/.local/state/decibar`), written whole and renamed into place, so a crash never leaves
/// half a file. A damaged file is set aside, said once, and a fresh list starts: never a refusal
/// to start.
enum PresetMemoryStore {
    static var path: String? {
        let environment = ProcessInfo.processInfo.environment
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") { return state + "/decibar/presets.json" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/decibar/presets.json" }
        return nil
    }

    /// The kept list; a fresh one (with one warning) when the file is damaged, none when there is none.
    static func load(from path: String? = path, warn: (String) -> Void = { writeError("warning: " + $0) }) -> PresetMemory {
        guard let path, let data = FileManager.default.contents(atPath: path) else { return PresetMemory() }
        do {
            return try PresetMemory(json: data)
        } catch {
            // Kept aside, not lost: a person may want what was in it.
            let aside = path + ".damaged"
            try? FileManager.default.removeItem(atPath: aside)
            let kept = (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil
            warn("\(path) is damaged (\(error.message))\(kept ? "; kept as \(aside)" : ""); starting a fresh list of favourites")
            return PresetMemory()
        }
    }

    /// Writes the list; the problem in a line when it cannot be written.
    static func save(_ memory: PresetMemory, to path: String? = path) -> String? {
        guard let path else { return "no home folder to keep favourites in" }
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let out = try PartialOutput(destination: path)
            try out.write(memory.json)
            try out.commit()
            return nil
        } catch let failure as CommandFailure {
            return failure.message
        } catch {
            return "cannot write \(path): \(error.localizedDescription)"
        }
    }
}
