import DecibarRender
import Foundation

/// The fragment shaders of --shader-dir: the files `*.frag`, in name order, one in use at a time.
/// The one in use is reloaded when its file changes; a shader that does not compile leaves the
/// last good one drawing and its message on screen until it is fixed.
final class UserShaders {
    let directory: String
    private let renderer: ShaderPassRenderer
    private var files: [String] = []
    private var index = 0
    private var loadedStamp: (path: String, modified: Date, size: Int)?
    private var lastCheck = -Double.infinity
    /// The compiler's message for the file in use, while it does not compile.
    private(set) var error: String?

    /// How often the file in use is checked for changes.
    static let checkInterval = 0.25

    init(directory: String, renderer: ShaderPassRenderer) {
        self.directory = directory
        self.renderer = renderer
        scan()
    }

    var isDrawing: Bool { renderer.isReady }
    var currentName: String? { files.indices.contains(index) ? files[index] : nil }

    /// Moves to the next shader in the folder.
    func next() {
        scan()
        guard !files.isEmpty else { return }
        index = (index + 1) % files.count
        loadedStamp = nil
        lastCheck = -Double.infinity
    }

    /// Loads the shader in use if it is new or changed since the last look.
    func refresh(now: Double) {
        guard now - lastCheck >= Self.checkInterval else { return }
        lastCheck = now
        if files.isEmpty { scan() }
        guard let name = currentName else {
            error = "no *.frag files in \(directory)"
            return
        }
        let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              let modified = attributes[.modificationDate] as? Date else {
            scan()
            return
        }
        let size = (attributes[.size] as? Int) ?? 0
        if let stamp = loadedStamp, stamp.path == path, stamp.modified == modified, stamp.size == size { return }
        loadedStamp = (path, modified, size)
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
            report("cannot read \(path)")
            return
        }
        do {
            try renderer.load(fragmentSource: source, name: path)
            if error != nil { writeError("shader \(path) compiles again") }
            error = nil
        } catch {
            report(error.description + (renderer.isReady ? " (the last good shader stays)" : ""))
        }
    }

    private func report(_ message: String) {
        if message != error { writeError(message) }
        error = message
    }

    private func scan() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        files = names.filter { $0.hasSuffix(".frag") }.sorted()
        if index >= files.count { index = 0 }
    }
}
