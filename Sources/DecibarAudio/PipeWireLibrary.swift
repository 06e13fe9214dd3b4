import CPipeWire
import Synchronization

/// libpipewire, opened on first use (see CLoader.h) and initialized once.
enum PipeWireLibrary {
    private static let outcome = Mutex<String??>(nil)

    /// Nil once loaded, or why it cannot be.
    static var failure: String? {
        outcome.withLock { outcome in
            if let known = outcome { return known }
            var message = [CChar](repeating: 0, count: 256)
            let loaded = decibar_pw_load(&message, Int32(message.count)) != 0
            let result: String? = loaded ? nil : String(cMessage: message)
            outcome = .some(result)
            return result
        }
    }

    /// The library's version, e.g. `0.3.65` (empty when it is not loaded).
    static var version: String {
        guard failure == nil, let text = decibar_pw_library_version() else { return "" }
        return String(cString: text)
    }
}
