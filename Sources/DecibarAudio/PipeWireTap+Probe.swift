import CPipeWire
import DecibarCore
import Dispatch
import Synchronization

extension PipeWireTap {
    /// Whether a PipeWire server with audio answers (one that runs only for screen sharing, beside
    /// a PulseAudio, does not count): a connection, one round trip, and a look for an audio device.
    /// Up to `timeout` seconds; nothing is left running.
    public static func serverAnswers(remote: String? = nil, timeout: Double = 0.5) -> Bool {
        guard PipeWireLibrary.failure == nil else { return false }
        let probe = Probe()
        var callbacks = decibar_pw_callbacks(
            global: { user, _, type, properties, count in
                guard let user, let type, String(cString: type).hasSuffix(":Interface:Node") else { return }
                for item in UnsafeBufferPointer(start: properties, count: Int(count)) {
                    guard let key = item.key, let value = item.value, String(cString: key) == "media.class" else { continue }
                    let mediaClass = String(cString: value)
                    if mediaClass.hasPrefix("Audio/Sink") || mediaClass.hasPrefix("Audio/Source") {
                        Unmanaged<Probe>.fromOpaque(user).takeUnretainedValue().hasAudio.store(true, ordering: .relaxed)
                    }
                }
            },
            global_removed: { _, _ in },
            default_changed: nil,  // a probe that bound the metadata and left at once could silence it (see decibar_pw_client_free)
            synced: { user, _ in
                guard let user else { return }
                Unmanaged<Probe>.fromOpaque(user).takeUnretainedValue().done.signal()
            },
            error: { user, fatal, _ in
                guard let user, fatal != 0 else { return }
                Unmanaged<Probe>.fromOpaque(user).takeUnretainedValue().done.signal()
            },
            state: { _, _, _ in },
            format: { _, _, _ in },
            samples: { _, _, _, _, _, _, _ in 0 },
            data_thread: nil)
        let user = Unmanaged.passUnretained(probe).toOpaque()
        var message = [CChar](repeating: 0, count: 256)
        guard let client = decibar_pw_client_new("decibar-probe", remote, &callbacks, user, &message, Int32(message.count)) else { return false }
        defer {
            decibar_pw_client_free(client)
            withExtendedLifetime(probe) {}
        }
        guard decibar_pw_client_start(client) == 0 else { return false }
        decibar_pw_client_lock(client)
        _ = decibar_pw_client_sync(client)
        decibar_pw_client_unlock(client)
        guard probe.done.wait(timeout: .now() + .nanoseconds(Int(timeout * 1e9))) == .success else { return false }
        return probe.hasAudio.load(ordering: .relaxed)
    }

    private final class Probe: Sendable {
        let done = DispatchSemaphore(value: 0)
        let hasAudio = Atomic(false)
    }
}
