import RealModule

/// Turns what is heard into WLED Audio Sync V2 packets that look, on a controller, as its own
/// microphone does with WLED's automatic gain on: levels and channels in 0...255 with loud moments
/// near the top whatever the master's loudness, WLED's default square-root channel scale and its
/// smoothing (a fast rise, a slow fall), zeros in silence. Every constant is a time, so packets at
/// 20 or 50 a second move alike.
public struct AudioSync: Sendable {
    public private(set) var packet = AudioSyncPacket()
    private var levelSensitivity = AutoSensitivity(spanDB: 30, headroom: Self.levelTarget)
    private var channelSensitivity = AutoSensitivity(spanDB: 40)
    private var smoothChannels = [Float](repeating: 0, count: AudioSyncPacket.channelCount)
    /// Seconds below the squelch since the last sound.
    private var quietTime = 0.0
    /// The peak of the last stretch that had audio, and how long no audio has reached the packets.
    private var heldPeakDB: Float = -.infinity
    private var gapTime = 0.0

    /// Below this peak (dBFS) the input counts as silence, as WLED's squelch.
    public static let squelchDB: Float = -80
    /// Where WLED's gain puts a loud level: about 220 of 255.
    static let levelTarget: Float = 0.86
    /// Below the squelch this long is a rest: beats carried over it set no `samplePeak`. A packet
    /// whose own stretch is quiet (the ms after a click) still carries its beat.
    static let restTime = 0.3
    /// A stretch no audio reached (the capture's delivery came late) carries the last peak for this
    /// long: a busy machine's late buffer is not silence. Longer, the source has stopped.
    static let gapHoldTime = 0.1
    /// `sampleSmth`: WLED's 1/16 step at every pass of its main loop, a few hundred ms to settle.
    static let smoothTime = 0.15
    /// Channels: WLED's 0.75 rise and 0.17 fall every ~23 ms (its default 1400 ms decay).
    static let channelRiseTime = 0.0166
    static let channelFallTime = 0.123
    /// FFT_Magnitude of the loudest channel: WLED's effects divide it by 4 to 16 into a byte.
    static let fullMagnitude: Float = 4000

    public init() {}

    /// Moves on by `dt` seconds of heard audio and fills the next packet.
    /// - Parameters:
    ///   - peakDB: the largest sample heard since the last packet, dBFS; nil when no audio reached
    ///     this stretch.
    ///   - channelDB: the 16 channels' levels in dB (corrected so pink noise reads flat).
    ///   - strongest: the strongest frequency and its level.
    ///   - beat: a hit was heard since the last packet (a beat, or a burst while no beat is followed).
    public mutating func advance(peakDB heard: Float?, channelDB: [Float], strongest: (hertz: Double, decibels: Float)?,
                                 beat: Bool, dt: Double) {
        gapTime = heard == nil ? gapTime + Swift.max(0, dt) : 0
        if let heard { heldPeakDB = heard }
        let peakDB = gapTime <= Self.gapHoldTime ? heldPeakDB : -.infinity
        let silent = !(peakDB >= Self.squelchDB)
        quietTime = silent ? quietTime + Swift.max(0, dt) : 0
        let loudest = channelDB.max() ?? -.infinity
        levelSensitivity.advance(loudestDB: peakDB, levelDB: peakDB, dt: dt)
        channelSensitivity.advance(loudestDB: loudest, levelDB: peakDB, dt: dt)
        let top = channelSensitivity.referenceDB ?? 0

        packet.sampleRaw = silent ? 0 : (255 * levelSensitivity.normalized(peakDB, fullScale: 1)).rounded(.down)
        packet.sampleSmooth += (packet.sampleRaw - packet.sampleSmooth) * Self.share(dt, Self.smoothTime)
        if packet.sampleSmooth < 1 && silent { packet.sampleSmooth = 0 }

        for index in 0 ..< AudioSyncPacket.channelCount {
            let level = index < channelDB.count ? channelDB[index] : -.infinity
            let target: Float = silent ? 0 : Swift.min(254, 254 * Self.squareRootScale(level - top))
            let current = smoothChannels[index]
            var next = current + (target - current) * Self.share(dt, target > current ? Self.channelRiseTime : Self.channelFallTime)
            // WLED cuts what its square root would round away.
            if next < 4 { next = target < 4 ? 0 : next }
            smoothChannels[index] = next
            packet.channels[index] = UInt8(next.rounded(.down))
        }
        if let strongest, !silent {
            packet.magnitude = Swift.min(Self.fullMagnitude, Self.fullMagnitude * Self.squareRootScale(strongest.decibels - top))
            packet.majorPeak = Float(Swift.min(11_025, Swift.max(1, strongest.hertz)))
        } else {
            packet.magnitude = 0
            packet.majorPeak = 0
        }
        packet.isPeak = beat && quietTime < Self.restTime
        packet.counter &+= 1
    }

    /// WLED's default channel scale: the square root of the amplitude, here relative to the
    /// window's top (0 dB → 1, -40 dB → 0.1).
    static func squareRootScale(_ decibels: Float) -> Float {
        decibels.isFinite ? Float.pow(10, Swift.min(0, decibels) / 40) : 0
    }

    private static func share(_ dt: Double, _ time: Double) -> Float {
        Float(1 - Double.exp(-Swift.max(0, dt) / time))
    }
}
