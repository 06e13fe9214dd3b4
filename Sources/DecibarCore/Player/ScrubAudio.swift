/// Hearing what is under the pointer while the scrubber is dragged: when the audio jumps to the
/// pointer, and when it falls silent.
///
/// The audio plays on at normal speed from where it last jumped, so each stretch is the file as it
/// is, at its own pitch. Once a grain has played `grainSeconds` and the audio is more than
/// `toleranceSeconds` from the pointer, it jumps there again: a pointer moving fast is followed
/// grain by grain, a slow one is heard nearly continuously (the grain repeats a little of itself),
/// and a pointer held still repeats its grain for `stillSeconds`, then the audio pauses until it
/// moves. A grain is heard an output's latency after its jump and then plays on at normal speed,
/// while a fast pointer runs ahead: the jump aims where the pointer will be by the middle of the
/// grain. All times are measured, never counted in frames.
public struct ScrubAudio: Sendable {
    public enum Action: Sendable, Equatable {
        case none
        /// Play from this time (in the track).
        case jump(to: Double)
        /// The pointer rests: pause until it moves.
        case silence
    }

    /// The least a grain plays before the next jump, in seconds of real time: long enough to hear
    /// its pitch, short enough to follow the hand.
    public static let grainSeconds = 0.09
    /// How far the audio may stray from the pointer, in seconds of the track.
    public static let toleranceSeconds = 0.05
    /// How long a pointer held still is heard before the audio pauses.
    public static let stillSeconds = 0.3
    /// Faster than this (track seconds a second, either way), the jumps aim ahead of the pointer.
    public static let fastSpeed = 2.0
    /// How often the pointer's speed is measured.
    static let speedWindow = 0.1

    /// Seconds from a jump to its first sound being heard.
    public let latency: Double
    /// The pointer's speed over the last `speedWindow`, in track seconds a second.
    public private(set) var speed = 0.0
    private var speedFrom: (pointer: Double, at: Double)?

    private var grainStartedAt: Double?
    private var pointer: Double?
    private var movedAt = 0.0
    private var isSilent = false

    public init(latency: Double) {
        self.latency = max(0, latency)
    }

    /// Called every frame while the button is held: `pointer` is the time under the pointer,
    /// `heard` the time being heard, `now` the clock in seconds.
    public mutating func update(pointer: Double, heard: Double, now: Double) -> Action {
        if pointer != self.pointer {
            self.pointer = pointer
            movedAt = now
        }
        if let from = speedFrom {
            if now - from.at >= Self.speedWindow {
                speed = (pointer - from.pointer) / (now - from.at)
                speedFrom = (pointer, now)
            }
        } else {
            speedFrom = (pointer, now)
        }
        if now - movedAt >= Self.stillSeconds {
            guard !isSilent else { return .none }
            isSilent = true
            return .silence
        }
        if let started = grainStartedAt, !isSilent {
            guard now - started >= Self.grainSeconds, Swift.abs(heard - pointer) > Self.toleranceSeconds else { return .none }
        }
        isSilent = false
        grainStartedAt = now
        return .jump(to: pointer + lead)
    }

    /// How far ahead of the pointer a jump aims: where it will be once the grain is heard, less the
    /// half grain the audio then plays on by itself. None for a slow hand.
    public var lead: Double {
        guard Swift.abs(speed) > Self.fastSpeed else { return 0 }
        return speed * latency + (speed - 1) * Self.grainSeconds / 2
    }
}
