import DecibarCore
import Foundation
import Synchronization
import SystemPackage

/// A file or folder written next to its destination under a partial name and renamed into place
/// only when complete: readers never see half of it, and an interrupted write leaves nothing at the
/// destination. Every writer in Decibar (render, record, peaks, the overview cache, screenshots)
/// goes through this one type.
///
/// It never deletes what it did not create: the partial is made with `O_EXCL | O_NOFOLLOW` (or
/// `mkdir`) under a fresh random name, so nothing already there is opened or followed; a folder is
/// renamed only onto a missing or empty folder (the kernel refuses a non-empty one); and a file is
/// renamed only over a regular file that is not one of the inputs being read.
/// Leftovers of a run that was killed (SIGKILL, a power cut) are removed by the next run writing the
/// same destination (`removeStale(for:)`).
final class PartialOutput {
    enum Kind {
        case file
        case folder
    }

    /// The destination as given (without a trailing slash).
    let destination: String
    /// Where the partial is.
    let path: String
    let kind: Kind
    private var descriptor: Int32 = -1
    private var isFinished = false
    private let protectedInputs: [FileIdentity]

    /// Creates the partial.
    /// - Parameters:
    ///   - role: distinguishes several partials of one destination (`video`, `audio`).
    ///   - keepsOpen: false when another program (ffmpeg) writes the file by its path.
    ///   - inputs: files being read, which the result must never replace.
    init(destination: String, kind: Kind = .file, role: String = "", fileExtension: String = "",
         keepsOpen: Bool = true, protecting inputs: [String] = []) throws(CommandFailure) {
        self.destination = OutputPath.trimmingTrailingSlashes(destination)
        self.kind = kind
        protectedInputs = inputs.compactMap(FileIdentity.init(path:))
        let name = PartialName(key: Self.key(for: self.destination), processID: getpid(), tag: Self.randomTag(),
                               role: role, fileExtension: fileExtension)
        path = OutputPath.folder(of: self.destination) + "/" + name.name
        switch kind {
        case .file:
            descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(errno) }
            if !keepsOpen {
                close(descriptor)
                descriptor = -1
            }
        case .folder:
            guard mkdir(path, 0o755) == 0 else { throw failure(errno) }
        }
        Self.register(path)
    }

    deinit {
        if !isFinished { discard() }
    }

    /// Appends bytes to a partial file this process writes.
    func write(_ bytes: UnsafeRawBufferPointer) throws(CommandFailure) {
        precondition(descriptor >= 0, "write to a partial that is not open")
        do {
            try Posix.writeAll(descriptor, bytes)
        } catch {
            // A write that takes nothing is a full disk.
            throw failure(error == EIO ? ENOSPC : error.code)
        }
    }

    func write(_ bytes: [UInt8]) throws(CommandFailure) {
        // `withUnsafeBytes` rethrows untyped errors; carry the typed one out by hand.
        var failure: CommandFailure?
        bytes.withUnsafeBytes { raw in
            do throws(CommandFailure) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Writes a file inside a partial folder (a frame), made the same careful way.
    func writeFile(named name: String, _ bytes: [UInt8]) throws(CommandFailure) {
        precondition(kind == .folder, "files go into a partial folder")
        let file = path + "/" + name
        let descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw failure(errno) }
        defer { close(descriptor) }
        let code: Int32? = bytes.withUnsafeBytes { raw in
            do throws(Posix.Failure) { try Posix.writeAll(descriptor, raw) } catch { return error == EIO ? ENOSPC : error.code }
            return nil
        }
        if let code { throw failure(code) }
    }

    /// Moves the finished partial to the destination. On failure the partial is removed.
    func commit() throws(CommandFailure) {
        guard !isFinished else { return }
        if descriptor >= 0 {
            let closed = close(descriptor)
            descriptor = -1
            guard closed == 0 else {
                let code = errno
                discard()
                throw failure(code)
            }
        }
        // Checked again now: the destination may have changed since the command started.
        if kind == .file {
            var info = stat()
            if lstat(destination, &info) == 0 {
                let type = info.st_mode & S_IFMT
                guard type == S_IFREG || type == S_IFLNK else {
                    discard()
                    throw CommandFailure(message: "cannot write \(destination.escapingControlCharacters): it is not a regular file; nothing was replaced")
                }
            }
            if let identity = FileIdentity(path: destination), protectedInputs.contains(identity) {
                discard()
                throw CommandFailure(message: "cannot write \(destination.escapingControlCharacters): it is the input being read; nothing was replaced")
            }
        }
        guard rename(path, destination) == 0 else {
            let code = errno
            discard()
            if code == ENOTEMPTY || code == EEXIST {
                throw CommandFailure(message: "cannot write \(destination.escapingControlCharacters): the folder is not empty; nothing in it was replaced")
            }
            throw failure(code)
        }
        isFinished = true
        Self.unregister(path)
    }

    /// Removes the partial (and, for a folder, the files written into it).
    func discard() {
        guard !isFinished else { return }
        isFinished = true
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        Self.remove(path)
        Self.unregister(path)
    }

    private func failure(_ code: Int32) -> CommandFailure {
        CommandFailure(message: "cannot write \(destination.escapingControlCharacters): \(String(cString: strerror(code)))")
    }

    // MARK: - Leftovers

    /// Removes partials of `destination` left by runs that no longer exist (killed, crashed).
    /// A partial that another running Decibar is writing stays.
    static func removeStale(for destination: String) {
        let trimmed = OutputPath.trimmingTrailingSlashes(destination)
        let key = key(for: trimmed)
        let folder = OutputPath.folder(of: trimmed)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names {
            guard let partial = PartialName(parsing: name), partial.key == key, partial.processID != getpid(),
                  !isDecibarRunning(partial.processID) else { continue }
            remove(folder + "/" + name)
        }
    }

    /// Removes every partial this process still has (the display went away; the process ends).
    static func discardAllInProgress() {
        for path in inProgress.withLock({ $0 }) { remove(path) }
    }

    /// Partials being written by this process.
    private static let inProgress = Mutex<Set<String>>([])

    private static func register(_ path: String) { _ = inProgress.withLock { $0.insert(path) } }
    private static func unregister(_ path: String) { _ = inProgress.withLock { $0.remove(path) } }

    /// Removes a partial file, or a partial folder with the files in it; nothing else is followed.
    private static func remove(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        if info.st_mode & S_IFMT == S_IFDIR {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] { unlink(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    private static func isDecibarRunning(_ processID: Int32) -> Bool {
        guard kill(processID, 0) == 0 || errno == EPERM else { return false }
        // The ID may have been reused by another program since.
        guard let name = try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8) else { return true }
        return name.hasPrefix("decibar")
    }

    /// The key of a destination: its absolute path, so that `out.mp4` and `./out.mp4` agree.
    private static func key(for destination: String) -> String {
        PartialName.key(forDestination: OutputPath.absolute(destination))
    }

    private static func randomTag() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0 ..< 8).map { _ in letters.randomElement()! })
    }
}

/// A file's device and inode: the same file under any name or link.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
