import DecibarCore
import Glibc

/// A failure that ends the program with a one-line message (none for `silent`, when every
/// problem was already reported as it happened).
public struct CommandFailure: Error {
    public var message: String
    public var status: Int32 = 1

    public init(message: String, status: Int32 = 1) {
        self.message = message
        self.status = status
    }

    public static func silent(status: Int32) -> CommandFailure { CommandFailure(message: "", status: status) }
}

/// Writes `decibar: message` to stderr, as one line whatever the message holds (a path with a
/// newline in it, say).
public func writeError(_ message: String) {
    var line = "decibar: \(message.escapingControlCharacters)\n"
    // Nothing is left to say where stderr fails.
    line.withUTF8 { bytes in try? Posix.writeAll(STDERR_FILENO, UnsafeRawBufferPointer(bytes)) }
}

/// Writes one line to stdout at once (unbuffered), so readers of a pipe see it immediately.
public func writeLine(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { writeBytes($0) }
}

/// Writes bytes to standard output in full.
public func writeBytes(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { writeBytes($0) }
}

/// Writes bytes to standard output in full. A reader that went away (EPIPE, as with `| head`) ends
/// the program quietly, like other filters; any other failure (a full disk, /dev/full) is reported
/// and ends it with status 1, so no output is lost silently.
public func writeBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
    do {
        try Posix.writeAll(STDOUT_FILENO, UnsafeRawBufferPointer(bytes))
    } catch {
        if error == EPIPE { exit(0) }
        writeError("cannot write to standard output: \(error)")
        exit(1)
    }
}
