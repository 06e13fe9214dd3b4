import DecibarAudio
import DecibarCore
import Synchronization

/// The daemon's outputs as its feed pumps see them: the pumps (the tap's, the player's) are made
/// once per tap or track and hand every buffer and beat here; `ctl set outputs.send` swaps the hub
/// behind it without touching them.
final class OutputRelay: Sendable {
    private let hub = Mutex<OutputHub?>(nil)

    var current: OutputHub? {
        get { hub.withLock { $0 } }
        set { hub.withLock { $0 = newValue } }
    }

    func add(_ buffer: AudioBuffer, from source: OutputHub.Source) {
        hub.withLock { $0 }?.add(buffer, from: source)
    }

    func beatListener(from source: OutputHub.Source) -> @Sendable (BeatEvent) -> Void {
        { [self] event in
            guard event.isBeat, let hub = current else { return }
            hub.addBeat(at: event.time, bpm: event.bpm ?? 0, confidence: event.confidence, from: source)
        }
    }

    /// The outputs follow `source` from now on (a track opening: before its first buffer comes).
    func use(_ source: OutputHub.Source, heardDelay: @escaping @Sendable () -> Double) {
        current?.use(source, heardDelay: heardDelay)
    }

    /// Audio of `source` that will not be heard after all (a seek, a track closed).
    func discardWaiting(from source: OutputHub.Source) {
        guard let hub = current, hub.source == source else { return }
        hub.discardWaiting()
    }
}
