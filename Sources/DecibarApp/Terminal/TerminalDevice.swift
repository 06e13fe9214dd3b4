import Glibc
import Synchronization

/// The terminal `decibar term` draws in: its standard input and output, put in raw mode on the
/// alternate screen with the cursor hidden and mouse reports on, and put back as it was on the
/// way out, on q, Ctrl+C, SIGTERM, SIGHUP, and a crash (a handler writes the same bytes then).
final class TerminalDevice {
    let input: Int32 = 0
    let output: Int32 = 1
    private let saved: termios
    private var entered = false
    private let wake: (read: Int32, write: Int32)

    /// Fails in one line when either end is not a terminal (a pipe, a file, a service).
    init() throws(CommandFailure) {
        guard Posix.isTerminal(output) else {
            throw CommandFailure(message: "the output is not a terminal: term draws in one ('decibar levels --format ascii' writes bars to a pipe)",
                                 status: 2)
        }
        guard Posix.isTerminal(input) else {
            throw CommandFailure(message: "the input is not a terminal: term reads its keys from one", status: 2)
        }
        do {
            saved = try Posix.terminalSettings(input)
            wake = try Posix.wakePipe()
        } catch {
            throw CommandFailure(message: "cannot use the terminal: \(error)")
        }
    }

    deinit {
        restore()
        Posix.close(wake.read)
        Posix.close(wake.write)
    }

    /// What is written to leave the terminal as it was: mouse reports, synchronized output and
    /// kitty's pictures off, colours reset, line wrapping and the cursor back, the main screen.
    static let leaving = Array(("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l\u{1B}[?2026l\u{1B}_Ga=d,d=A,q=2\u{1B}\\"
        + "\u{1B}[0m\u{1B}[?7h\u{1B}[?25h\u{1B}[?1049l").utf8)
    static let entering = Array("\u{1B}[?1049h\u{1B}[?25l\u{1B}[?7l\u{1B}[0m\u{1B}[H\u{1B}[2J".utf8)
    static let mouseOn = Array("\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h".utf8)

    /// Raw mode, the alternate screen, the cursor hidden, mouse reports (button presses, drags
    /// and the wheel, in SGR form), and the signal handlers that put it all back.
    func enter() throws(CommandFailure) {
        guard !entered else { return }
        TerminalSignals.install(input: input, output: output, settings: saved, leaving: Self.leaving, wake: wake.write)
        guard Posix.setTerminalSettings(input, Posix.rawTerminalSettings(from: saved)) else {
            TerminalSignals.uninstall()
            throw CommandFailure(message: "cannot put the terminal in raw mode")
        }
        entered = true
        write(Self.entering + Self.mouseOn)
    }

    /// Leaves the terminal as it was; does nothing the second time.
    func restore() {
        guard entered else { return }
        entered = false
        write(Self.leaving)
        Posix.setTerminalSettings(input, saved)
        TerminalSignals.uninstall()
    }

    /// Writes all of `bytes` now (setup and queries; frames go through `TerminalFrameWriter`).
    func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { try? Posix.writeAll(output, $0) }
    }

    /// Columns and rows, and the pixels the text area has where the terminal says.
    var size: (columns: Int, rows: Int, pixelWidth: Int, pixelHeight: Int) {
        Posix.terminalSize(output) ?? Posix.terminalSize(input) ?? (80, 24, 0, 0)
    }

    /// Wakes `read` from another thread (sound came back while the picture rested).
    var wakeUp: @Sendable () -> Void {
        let fd = wake.write
        return {
            var byte: UInt8 = 1
            Posix.signalSafeWrite(fd, &byte, 1)
        }
    }

    /// Waits up to `timeout` seconds for typing or a signal; returns the bytes typed, or nil when
    /// the terminal has gone (its input closed).
    func read(timeout: Double) -> [UInt8]? {
        let milliseconds = Int32(max(0, min(1000, timeout * 1000)).rounded(.up))
        guard let ready = try? Posix.poll([input, wake.read], milliseconds: milliseconds) else { return [] }
        if ready[1] { drainWake() }
        guard ready[0] else { return [] }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { (try? Posix.read(input, into: $0)) ?? 0 }
        return count == 0 ? nil : Array(bytes.prefix(count))
    }

    private func drainWake() {
        var scratch = [UInt8](repeating: 0, count: 64)
        _ = scratch.withUnsafeMutableBytes { try? Posix.read(wake.read, into: $0) }
    }
}
