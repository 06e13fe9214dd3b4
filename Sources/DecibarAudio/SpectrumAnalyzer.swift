import DecibarCore

/// Band levels of the newest block of audio: Hann window, FFTW real transform, log-spaced bands
/// normalized so pink noise reads flat (see `SpectrumBands`). Plans and buffers are made once;
/// `analyze` allocates nothing. One instance belongs to one thread at a time.
public final class SpectrumAnalyzer {
    public let bands: SpectrumBands
    public let channelCount: Int
    private let transform: FFTWTransform
    private let window: HannWindow
    private var power: [Float]
    /// `levels[channel][band]` in dB after the last `analyze`.
    public private(set) var levels: [[Float]]

    /// - Parameters:
    ///   - channelCount: 1 or 2 (a left and a right spectrum).
    ///   - measuredPlan: let FFTW time its algorithms (about twice as fast). Off where results must
    ///     be bit-identical from run to run: a measured plan may pick another algorithm next time.
    public convenience init?(sampleRate: Int, bandCount: Int, channelCount: Int = 2,
                             lowHz: Double = SpectrumBands.defaultLowHz, highHz: Double = SpectrumBands.defaultHighHz,
                             measuredPlan: Bool = true) {
        self.init(bands: SpectrumBands(sampleRate: sampleRate, count: bandCount, lowHz: lowHz, highHz: highHz),
                  channelCount: channelCount, measuredPlan: measuredPlan)
    }

    public init?(bands: SpectrumBands, channelCount: Int = 2, measuredPlan: Bool = true) {
        guard let transform = FFTWTransform(length: bands.fftLength, measured: measuredPlan) else { return nil }
        self.bands = bands
        self.channelCount = Swift.max(1, Swift.min(2, channelCount))
        self.transform = transform
        window = HannWindow(length: bands.fftLength)
        power = Array(repeating: 0, count: transform.binCount)
        levels = Array(repeating: Array(repeating: SpectrumBands.floorDB, count: bands.count), count: self.channelCount)
    }

    /// Analyzes each channel's newest `fftLength` samples, which `fill(channel, destination)` copies in.
    @discardableResult
    public func analyze(fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void) -> [[Float]] {
        for channel in 0 ..< channelCount {
            power.withUnsafeMutableBufferPointer { power in
                // The samples land in the transform's input and are windowed there: no extra block copy.
                transform.powerSpectrum(into: power, scale: window.powerScale) { input in
                    fill(channel, input)
                    window.coefficients.withUnsafeBufferPointer { coefficients in
                        for index in 0 ..< input.count { input[index] *= coefficients[index] }
                    }
                }
            }
            power.withUnsafeBufferPointer { power in
                levels[channel].withUnsafeMutableBufferPointer { bands.levels(fromPower: power, into: $0) }
                if channel == 0 { strongest = bands.strongest(in: power, upTo: strongestLimitHz) }
            }
        }
        return levels
    }

    /// The first channel's strongest frequency up to `strongestLimitHz` after the last `analyze`
    /// (between bins, from the parabola through the peak's neighbors in dB) and its level in dB
    /// (a full-scale sine reads about 0).
    public private(set) var strongest: (hertz: Double, decibels: Float) = (0, SpectrumBands.floorDB)
    /// Where the search for `strongest` stops (WLED's controllers stop at 11 025 Hz).
    public var strongestLimitHz = 11_025.0
}
