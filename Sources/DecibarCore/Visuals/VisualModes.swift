import Synchronization

/// The modes there are, as the catalog registered them, in `m`'s order. Filled once at start
/// (and by a test's own mode); read from any thread.
public enum VisualModes {
    private static let registered = Mutex<[VisualModeDescription]>([])

    /// Adds a mode at the end of the cycle, or replaces the one of the same name.
    public static func register(_ mode: VisualModeDescription) {
        registered.withLock { modes in
            if let index = modes.firstIndex(where: { $0.name == mode.name }) { modes[index] = mode } else { modes.append(mode) }
        }
    }

    /// Takes a mode out of the cycle (a test's own, once it is done).
    public static func unregister(named name: String) {
        registered.withLock { modes in modes.removeAll { $0.name == name } }
    }

    public static var all: [VisualModeDescription] { registered.withLock { $0 } }

    public static func description(named name: String) -> VisualModeDescription? {
        registered.withLock { modes in modes.first { $0.name == name } }
    }
}
