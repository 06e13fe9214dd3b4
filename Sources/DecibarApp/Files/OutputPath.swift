import DecibarCore
import Foundation
import SystemPackage

/// Why a destination cannot or must not be written, in one line.
public struct OutputPathProblem: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// Checks of a path Decibar will write, made when the command line is read, so that a bad
/// destination is one line and status 2 before any work, and nothing already there is put at risk.
public enum OutputPath {
    public enum Kind {
        case file
        /// A folder of frames: it must not exist yet, or be empty.
        case folder
    }

    /// Throws a one-line problem when `path` cannot or must not be written.
    /// - Parameter inputs: files the command reads, which the output must never replace.
    public static func check(_ path: String, option: String, kind: Kind, inputs: [String] = []) throws(OutputPathProblem) {
        let shown = "\(option) \(path.escapingControlCharacters)"
        guard !path.isEmpty else { throw OutputPathProblem("\(option) needs a path") }
        if path.split(separator: "/").contains(where: { $0.utf8.count > 255 }) {
            throw OutputPathProblem("\(shown): a name in it is longer than 255 bytes")
        }
        let trimmed = trimmingTrailingSlashes(path)
        var info = stat()
        let exists = stat(trimmed, &info) == 0
        let type = info.st_mode & S_IFMT
        switch kind {
        case .folder:
            let last = FilePath(trimmed).lastComponent?.string ?? ""
            if trimmed == "/" || last == "." || last == ".." {
                throw OutputPathProblem("\(shown): frames go into a new or empty folder, not an existing one such as . or ..")
            }
            if exists {
                guard type == S_IFDIR else { throw OutputPathProblem("\(shown): exists and is not a folder") }
                let entries = (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? []
                guard entries.isEmpty else {
                    throw OutputPathProblem("\(shown): the folder is not empty; name a new or empty folder (nothing in an existing one is replaced)")
                }
            }
        case .file:
            if exists {
                if type == S_IFDIR { throw OutputPathProblem("\(shown): is a folder") }
                guard type == S_IFREG else {
                    throw OutputPathProblem("\(shown): exists and is not a regular file (a device, pipe or socket); it is not replaced")
                }
                if let identity = FileIdentity(path: trimmed),
                   inputs.contains(where: { FileIdentity(path: $0) == identity }) {
                    throw OutputPathProblem("\(shown): is the input file; it is not replaced (choose another name)")
                }
            }
        }
        let parent = folder(of: trimmed)
        var parentInfo = stat()
        guard stat(parent, &parentInfo) == 0, parentInfo.st_mode & S_IFMT == S_IFDIR else {
            throw OutputPathProblem("\(option): no such folder: \(parent.escapingControlCharacters)")
        }
        guard access(parent, W_OK | X_OK) == 0 else {
            throw OutputPathProblem("\(option): cannot write in \(parent.escapingControlCharacters)")
        }
    }

    /// `path` without trailing slashes (the root stays `/`).
    static func trimmingTrailingSlashes(_ path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        return String(trimmed)
    }

    /// The folder that holds `path` (`.` for a bare name).
    static func folder(of path: String) -> String {
        let parent = FilePath(trimmingTrailingSlashes(path)).removingLastComponent()
        return parent.isEmpty ? "." : parent.string
    }

    /// The lowercased extension of `path`'s last component, or "".
    public static func fileExtension(of path: String) -> String {
        FilePath(trimmingTrailingSlashes(path)).extension?.lowercased() ?? ""
    }

    /// The last component of `path` (a file's name), or the path itself.
    static func name(of path: String) -> String {
        FilePath(trimmingTrailingSlashes(path)).lastComponent?.string ?? path
    }

    /// `path` made absolute against the working folder and lexically normalized.
    public static func absolute(_ path: String) -> String {
        var file = FilePath(path)
        if !file.isAbsolute {
            let working = FileManager.default.currentDirectoryPath
            file = FilePath(working).pushing(file)
        }
        return file.lexicallyNormalized().string
    }
}
