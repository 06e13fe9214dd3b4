import RealModule

/// Shadertoy's audio input (`iChannel0`): 512 x 2 bytes, made as a browser's Web Audio
/// `AnalyserNode` makes them, so shaders written on shadertoy.com see the numbers they were tuned to.
///
/// Row 0 is `getByteFrequencyData` with fftSize 2048: the newest 2048 samples (the channels
/// mixed down to one, as Web Audio does), a Blackman window, `|X[k]|/N`, smoothed over frames
/// (`smoothingTimeConstant` 0.8, once per frame), in dB, with -100...-30 dB mapped to 0...255;
/// the first 512 of its 1024 bins. Row 1 is `getByteTimeDomainData` of the newest 512 samples:
/// 128·(1 + sample). Both round down and clamp, as browsers do.
public struct AudioTexture {
    public static let width = 512
    public static let fftSize = 2048
    public static let smoothing: Float = 0.8
    public static let minDecibels: Float = -100
    public static let maxDecibels: Float = -30

    /// Row 0 (spectrum) then row 1 (waveform), `width` bytes each: a GL_R8 texture as it is.
    public private(set) var bytes: [UInt8]
    private let window: [Float]
    private var smoothed: [Float]
    private var left: [Float]
    private var right: [Float]
    private var mixed: [Float]
    private var power: [Float]
    private let transform: any PowerSpectrumTransform

    /// `transform` must be `fftSize` long.
    public init(transform: any PowerSpectrumTransform) {
        precondition(transform.length == Self.fftSize, "the audio texture needs a 2048-point transform")
        self.transform = transform
        bytes = [UInt8](repeating: 0, count: 2 * Self.width)
        // Web Audio's Blackman window (alpha 0.16), periodic.
        window = (0 ..< Self.fftSize).map { index in
            let x = 2 * Double.pi * Double(index) / Double(Self.fftSize)
            return Float(0.42 - 0.5 * Double.cos(x) + 0.08 * Double.cos(2 * x))
        }
        smoothed = [Float](repeating: 0, count: Self.width)
        left = [Float](repeating: 0, count: Self.fftSize)
        right = left
        mixed = left
        power = [Float](repeating: 0, count: Self.fftSize / 2 + 1)
        for index in 0 ..< Self.width { bytes[Self.width + index] = 128 }
    }

    /// Forgets the smoothing (a new track, a seek): the next frame starts from its own spectrum.
    public mutating func reset() {
        for index in smoothed.indices { smoothed[index] = 0 }
    }

    /// One frame: the newest samples of `feed` (left and right; mono repeats) into both rows.
    public mutating func update(from feed: AudioFeed) {
        left.withUnsafeMutableBufferPointer { feed.copyLatest(channel: 0, into: $0) }
        right.withUnsafeMutableBufferPointer { feed.copyLatest(channel: 1, into: $0) }
        for index in 0 ..< Self.fftSize { mixed[index] = 0.5 * (left[index] + right[index]) }
        update(samples: mixed)
    }

    /// One frame from the newest `fftSize` samples of one channel, oldest first.
    public mutating func update(samples: [Float]) {
        precondition(samples.count == Self.fftSize, "the audio texture takes 2048 samples")
        let scale = 1 / Float(Self.fftSize * Self.fftSize)
        window.withUnsafeBufferPointer { window in
            samples.withUnsafeBufferPointer { samples in
                power.withUnsafeMutableBufferPointer { power in
                    transform.powerSpectrum(into: power, scale: scale) { input in
                        for index in 0 ..< Self.fftSize { input[index] = samples[index] * window[index] }
                    }
                }
            }
        }
        let range = Self.maxDecibels - Self.minDecibels
        for bin in 0 ..< Self.width {
            let magnitude = power[bin].squareRoot()
            smoothed[bin] = Self.smoothing * smoothed[bin] + (1 - Self.smoothing) * magnitude
            // log10(0) is -inf: the byte clamps to 0.
            let decibels = 20 * Float.log10(smoothed[bin])
            bytes[bin] = Self.byte(255 * (decibels - Self.minDecibels) / range)
        }
        let newest = Self.fftSize - Self.width
        for index in 0 ..< Self.width {
            bytes[Self.width + index] = Self.byte(128 * (1 + samples[newest + index]))
        }
    }

    private static func byte(_ value: Float) -> UInt8 {
        guard value > 0 else { return 0 }
        return value >= 255 ? 255 : UInt8(value)
    }
}
