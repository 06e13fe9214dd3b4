import DecibarCore
import Foundation

/// A log of timing lines for the benchmarks (`--frame-log`, `--seek-log`). Writes go straight to
/// the file and a failed write is dropped: a full disk must not stop (or crash) the window.
final class LineLog {
    private let descriptor: Int32

    init(path: String, purpose: String) throws(CommandFailure) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CommandFailure(message: "cannot write the \(purpose) to \(path.escapingControlCharacters): \(String(cString: strerror(errno)))")
        }
    }

    deinit { close(descriptor) }

    func write(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = Glibc.write(descriptor, bytes.baseAddress, bytes.count) }
    }
}
