import DecibarRender
import Foundation

/// The fragment shaders of --shader-dir (the files `*.frag` and `*.glsl`, in name order), or of
/// --shader's folder starting at that file: one in use at a time.
/// The one in use is reloaded when its file changes; a shader that does not compile leaves the
/// last good one drawing and its message on screen until it is fixed.
final class UserShaders {
    let directory: String
    private let renderer: ShaderPassRenderer
    /// --shader's file: always in the list, whatever its name ends in.
    private let first: String?
    private var files: [String] = []
    private var index = 0
    private var loadedStamp: (path: String, modified: Int64, size: Int64)?
    /// The file in use: its name, full path and that path as a C string, made when it changes
    /// (a look every `checkInterval` then allocates nothing).
    private var current: (name: String, path: String, cPath: [CChar])?
    private var lastCheck = -Double.infinity
    /// The compiler's message for the file in use, while it does not compile.
    private(set) var error: String?

    /// How often the file in use is checked for changes.
    static let checkInterval = 0.25

    init(directory: String, first: String? = nil, renderer: ShaderPassRenderer) {
        self.directory = directory
        self.first = first
        self.renderer = renderer
        scan()
        if let first, let start = files.firstIndex(of: first) { index = start }
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

    /// Loads the shader in use now and returns why it cannot draw (nil when it can), saying
    /// nothing: a render fails with that message instead of drawing something else.
    func loadNow() -> String? {
        quiet = true
        defer { quiet = false }
        lastCheck = -Double.infinity
        refresh(now: 0)
        return error
    }

    private var quiet = false

    /// Loads the shader in use if it is new or changed since the last look.
    func refresh(now: Double) {
        guard now - lastCheck >= Self.checkInterval else { return }
        lastCheck = now
        if files.isEmpty { scan() }
        guard let name = currentName else {
            error = "no *.frag or *.glsl files in \(directory)"
            return
        }
        if current?.name != name {
            let path = (directory.hasSuffix("/") ? directory : directory + "/") + name
            current = (name, path, Array(path.utf8CString))
        }
        guard let current, let (modified, size) = current.cPath.withUnsafeBufferPointer({ Posix.fileStamp($0.baseAddress!) }) else {
            scan()
            return
        }
        let path = current.path
        if let stamp = loadedStamp, stamp.path == path, stamp.modified == modified, stamp.size == size { return }
        loadedStamp = (path, modified, size)
        guard let source = try? String(contentsOfFile: path, encoding: .utf8) else {
            report("cannot read \(path)")
            return
        }
        do {
            // The new shader's patch is timed. On a software renderer by the CPU time the process
            // used: the patch takes a fraction of a millisecond, and the wall clock counted a moment
            // the process did not run (another process, a host taking the cores) 2,000 times over,
            // refusing a good shader in 3 and 8 of 20 starts beside a load taking the cores 2 ms at a
            // time. (A GPU's work is not the process's CPU time: it keeps the wall clock.)
            let software = GLRenderer.isSoftware
            try renderer.load(fragmentSource: source, name: path) { software ? Posix.processCPUSeconds() : MonotonicClock.now() }
            if error != nil && !quiet { writeError("shader \(path) compiles again") }
            error = nil
        } catch {
            report(error.description + (renderer.isReady ? " (the last good shader stays)" : ""))
        }
    }

    private func report(_ message: String) {
        if message != error && !quiet { writeError(message) }
        error = message
    }

    private func scan() {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var found = names.filter { $0.hasSuffix(".frag") || $0.hasSuffix(".glsl") }
        if let first, !found.contains(first), names.contains(first) { found.append(first) }
        files = found.sorted()
        if index >= files.count { index = 0 }
    }
}
