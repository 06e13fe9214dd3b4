import RealModule

/// Automatic sensitivity for bars and spectrum: a dB window that follows the music, so that bars
/// use the window's height whatever the loudness. Mastered tracks no longer pin the bars to the
/// top, and quiet ones still move.
///
/// The window's top, `referenceDB`, follows the loudest input of recent frames: up quickly (the
/// gain falls fast when bars would overshoot) and down slowly (it rises slowly otherwise). A level
/// at the reference fills `headroom` of a bar, one `spanDB` below it is empty. A plain gain on the
/// -60...0 dBFS mapping cannot make bars move: real masters swing a few dB in 60, so either the
/// bars sit at the top or they barely move. Below the gate (silence, hiss) nothing moves: the
/// reference holds until music returns. Every constant is a time in seconds, so the behaviour is
/// the same at any frame rate.
public struct AutoSensitivity: Sendable, Equatable {
    /// How fast the reference follows louder input, and lets go of it (one-pole time constants).
    public var riseTime: Double
    public var fallTime: Double
    /// The dB range below the reference that a bar spans.
    public var spanDB: Float
    /// Below this RMS level (dBFS) the reference holds.
    public var gateDB: Float
    /// How full a bar is at the reference: under 1, so that only louder moments reach the top.
    public var headroom: Float
    /// The reference never goes below this (dBFS): a quiet track still looks quiet-ish.
    public var lowestReferenceDB: Float
    /// The level drawn near the top; nil until audio above the gate has arrived.
    public private(set) var referenceDB: Float?

    public static let defaultGateDB: Float = -60

    // Chosen on synthetic songs at -23, -14 and -9 LUFS (Scripts/make-music.sh): with 24 dB and
    // 0.95 the center bars swing by 14 % of the height and almost never sit at the top.
    public init(spanDB: Float = 24, riseTime: Double = 0.1, fallTime: Double = 6, gateDB: Float = defaultGateDB,
                headroom: Float = 0.95, lowestReferenceDB: Float = -45) {
        self.spanDB = spanDB
        self.riseTime = riseTime
        self.fallTime = fallTime
        self.gateDB = gateDB
        self.headroom = headroom
        self.lowestReferenceDB = lowestReferenceDB
    }

    /// Moves on by `dt` seconds. `loudestDB` is the frame's level that drives the tallest bar,
    /// `levelDB` its RMS level for the gate (nil: no audio this frame, which holds as well).
    public mutating func advance(loudestDB: Float, levelDB: Float?, dt: Double) {
        guard let levelDB, levelDB >= gateDB, loudestDB.isFinite, dt > 0 else { return }
        let target = Swift.min(6, Swift.max(lowestReferenceDB, loudestDB))
        guard let current = referenceDB else {
            // The first music sets the reference at once: no pinned bars while it would settle.
            referenceDB = target
            return
        }
        let time = target > current ? riseTime : fallTime
        referenceDB = current + (target - current) * Float(1 - Double.exp(-dt / time))
    }

    /// `decibels` as a 0...1 input to a bar shape whose tallest bar is full at `fullScale`.
    /// Before any music, the window is the plain one below 0 dBFS.
    public func normalized(_ decibels: Float, fullScale: Float) -> Float {
        guard decibels.isFinite else { return decibels > 0 ? fullScale : 0 }
        let top = referenceDB ?? 0
        let share = Swift.min(1 / headroom, Swift.max(0, (decibels - (top - spanDB)) / spanDB))
        return share * headroom * fullScale
    }
}
