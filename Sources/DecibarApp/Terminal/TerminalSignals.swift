import Glibc
import Synchronization

/// The signals of a terminal in use: SIGWINCH (the size changed), SIGTERM, SIGINT and SIGHUP (end,
/// the terminal restored on the way out) are noted and wake the loop; a crash (SIGSEGV, SIGBUS,
/// SIGILL, SIGTRAP, SIGABRT, SIGFPE) restores the terminal in the handler and dies of the signal.
enum TerminalSignals {
    /// Set once before the handlers go in and read only by them, which may run on any thread at
    /// any moment, where no lock may be taken: plain memory, written while no handler is installed.
    nonisolated(unsafe) private static var leaving: UnsafeMutableBufferPointer<UInt8>?
    /// On the heap, not a global of the C type: Swift lays a global `termios` out 57 bytes long,
    /// its padding dropped, and a copy into it writes all 60 (AddressSanitizer's report, 2026-12-04).
    nonisolated(unsafe) private static var settings: UnsafeMutablePointer<termios>?
    nonisolated(unsafe) private static var input: Int32 = 0
    nonisolated(unsafe) private static var output: Int32 = 1
    private static let wakeFD = Atomic<Int32>(-1)
    /// The size changed since asked.
    private static let resized = Atomic<Bool>(false)
    /// The signal that asks to end (0: none yet).
    private static let ending = Atomic<Int32>(0)

    static let endingSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static func install(input: Int32, output: Int32, settings: termios, leaving bytes: [UInt8], wake: Int32) {
        if leaving == nil {
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            leaving = buffer
        }
        if self.settings == nil {
            let memory = UnsafeMutablePointer<termios>.allocate(capacity: 1)
            memory.initialize(to: settings)
            self.settings = memory
        } else {
            self.settings?.pointee = settings
        }
        self.input = input
        self.output = output
        wakeFD.store(wake, ordering: .sequentiallyConsistent)
        resized.store(false, ordering: .sequentiallyConsistent)
        ending.store(0, ordering: .sequentiallyConsistent)
        Posix.handleSignal(SIGWINCH) { _ in
            TerminalSignals.resized.store(true, ordering: .sequentiallyConsistent)
            TerminalSignals.wakeLoop()
        }
        for signal in endingSignals {
            Posix.handleSignal(signal) { signal in
                TerminalSignals.ending.store(signal, ordering: .sequentiallyConsistent)
                TerminalSignals.wakeLoop()
            }
        }
        for signal in crashSignals {
            Posix.handleSignal(signal) { signal in
                // Only async-signal-safe calls: write, tcsetattr, sigaction, raise.
                if let bytes = TerminalSignals.leaving { Posix.signalSafeWrite(TerminalSignals.output, bytes.baseAddress, bytes.count) }
                if let settings = TerminalSignals.settings { Posix.setTerminalSettings(TerminalSignals.input, settings.pointee) }
                Posix.handleSignal(signal, nil)
                Posix.raise(signal)
            }
        }
    }

    static func uninstall() {
        for signal in endingSignals + crashSignals + [SIGWINCH] { Posix.handleSignal(signal, nil) }
        wakeFD.store(-1, ordering: .sequentiallyConsistent)
    }

    private static func wakeLoop() {
        let fd = wakeFD.load(ordering: .sequentiallyConsistent)
        guard fd >= 0 else { return }
        var byte: UInt8 = 1
        Posix.signalSafeWrite(fd, &byte, 1)
    }

    /// Whether the size changed since the last call.
    static func takeResize() -> Bool { resized.exchange(false, ordering: .sequentiallyConsistent) }

    /// The signal that asked to end, if one did.
    static var endingSignal: Int32? {
        let signal = ending.load(ordering: .sequentiallyConsistent)
        return signal == 0 ? nil : signal
    }
}
