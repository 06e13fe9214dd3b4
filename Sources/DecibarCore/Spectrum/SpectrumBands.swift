import RealModule

/// Log-spaced frequency bands over an FFT's bins, and band levels that are flat for pink noise.
///
/// Nominal edges are geometric from `lowHz` to `highHz`. A band that holds no bin center is merged
/// with the next (the last with the previous), so every band has at least one bin and the edges
/// that remain are still terms of the same geometric series.
///
/// A band's level is its power in dB (a full-scale sine whose whole main lobe falls in the band
/// reads 0 dB) corrected by the band's share of a pink spectrum: each bin is weighted by the
/// power pink noise puts in it through the Hann window, and the band's level is lowered by
/// `10·log10(weight / ln r)`, where `r` is the nominal band ratio. Pink noise therefore draws
/// flat bars, white noise rises 3 dB per octave, and a tone lights the band that holds it.
public struct SpectrumBands: Sendable, Equatable {
    public let sampleRate: Int
    public let fftLength: Int
    /// Band edges in Hz, `count + 1` of them, increasing.
    public let edges: [Double]
    /// For each band, the FFT bins it sums (half-open range of bin indices).
    public let bins: [Range<Int>]
    /// For each band, dB subtracted from its power so pink noise reads flat.
    public let corrections: [Float]
    /// Ratio between successive nominal edges.
    public let nominalRatio: Double

    public static let defaultLowHz = 40.0
    public static let defaultHighHz = 16_000.0
    /// The lowest level reported (silence), in dB.
    public static let floorDB: Float = -160

    public var count: Int { bins.count }
    public var binWidth: Double { Double(sampleRate) / Double(fftLength) }

    /// The FFT length for `sampleRate`: 4096 at 48 kHz, scaled with the rate to a power of two,
    /// from 256 up to `maximumFFTLength`.
    public static func fftLength(forSampleRate sampleRate: Int) -> Int {
        let exact = 4096 * Double(Swift.max(1, sampleRate)) / 48_000
        let exponent = Swift.max(8, Swift.min(maximumFFTExponent, Int((Double.log2(exact)).rounded())))
        return 1 << exponent
    }

    /// The longest FFT: 8192 serves 96 kHz; 192 kHz and above get a shorter window in time rather
    /// than a history (and a transform) that grows without end.
    public static let maximumFFTLength = 1 << maximumFFTExponent
    private static let maximumFFTExponent = 14

    /// The highest band edge at `sampleRate`: 16 kHz, or 0.45 × the rate when that is lower.
    public static func highEdge(forSampleRate sampleRate: Int, requested: Double = defaultHighHz) -> Double {
        Swift.min(requested, 0.45 * Double(sampleRate))
    }

    /// - Parameter count: bands wanted; fewer result when low bands must merge to hold a bin.
    public init(sampleRate: Int, count: Int, fftLength: Int? = nil, lowHz: Double = defaultLowHz,
                highHz: Double = defaultHighHz) {
        precondition(sampleRate > 0 && count >= 1, "invalid spectrum bands")
        let length = fftLength ?? Self.fftLength(forSampleRate: sampleRate)
        self.sampleRate = sampleRate
        self.fftLength = length
        let binWidth = Double(sampleRate) / Double(length)
        let high = Self.highEdge(forSampleRate: sampleRate, requested: highHz)
        let low = Swift.min(lowHz, high / 2)
        let ratio = Double.pow(high / low, 1 / Double(count))
        nominalRatio = ratio
        let nominal = (0 ... count).map { $0 == count ? high : low * Double.pow(ratio, Double($0)) }

        // The first bin whose center is at or above a frequency.
        func firstBin(atOrAbove frequency: Double) -> Int { Int((frequency / binWidth).rounded(.up)) }

        var edges = [nominal[0]]
        var bins: [Range<Int>] = []
        var start = firstBin(atOrAbove: nominal[0])
        for index in 1 ... count {
            let end = firstBin(atOrAbove: nominal[index])
            if end > start || index == count {
                if end > start {
                    edges.append(nominal[index])
                    bins.append(start ..< end)
                    start = end
                } else if let last = bins.indices.last {
                    // A last band without a bin joins the one before it.
                    edges[edges.count - 1] = nominal[index]
                    bins[last] = bins[last].lowerBound ..< end
                }
            }
        }
        self.edges = edges
        self.bins = bins

        let reference = Double.log(ratio)
        corrections = bins.map { range in
            let weight = range.reduce(0.0) { $0 + Self.pinkWeight($1) }
            return Float(10 * Double.log10(weight / reference))
        }
    }

    /// Bands between given edges (Hz, increasing), such as WLED's 16 GEQ channels: each sums the
    /// bins whose centers fall between its edges (at least the one nearest its middle), corrected
    /// by its share of a pink spectrum as the log-spaced bands are.
    public init(sampleRate: Int, edges: [Double], fftLength: Int? = nil) {
        precondition(sampleRate > 0 && edges.count >= 2, "invalid spectrum bands")
        let length = fftLength ?? Self.fftLength(forSampleRate: sampleRate)
        self.sampleRate = sampleRate
        self.fftLength = length
        self.edges = edges
        let binWidth = Double(sampleRate) / Double(length)
        let lastBin = length / 2
        bins = (0 ..< edges.count - 1).map { band in
            let start = Swift.min(lastBin, Int((edges[band] / binWidth).rounded(.up)))
            let end = Swift.min(lastBin, Int((edges[band + 1] / binWidth).rounded(.up)))
            if end > start { return start ..< end }
            let middle = Swift.min(lastBin - 1, Int(((edges[band] * edges[band + 1]).squareRoot() / binWidth).rounded()))
            return middle ..< middle + 1
        }
        nominalRatio = Double.pow(edges[edges.count - 1] / edges[0], 1 / Double(edges.count - 1))
        corrections = bins.enumerated().map { band, range in
            let weight = range.reduce(0.0) { $0 + Self.pinkWeight($1) }
            return Float(10 * Double.log10(weight / Double.log(edges[band + 1] / edges[band])))
        }
    }

    /// Expected pink power in bin `k` through a Hann window: 1/k spread over k-1, k, k+1 by the
    /// window's main lobe (|W|² of 1, 1/4, 1/4, normalized by their sum 1.5).
    static func pinkWeight(_ k: Int) -> Double {
        guard k >= 2 else { return 1 }
        return (0.25 / Double(k - 1) + 1 / Double(k) + 0.25 / Double(k + 1)) / 1.5
    }

    /// Writes each band's level in dB into `levels` (`count` values) from a power spectrum in
    /// which a full-scale sine's bins sum to 1 (see `HannWindow.powerScale`).
    public func levels(fromPower power: UnsafeBufferPointer<Float>, into levels: UnsafeMutableBufferPointer<Float>) {
        for band in 0 ..< Swift.min(count, levels.count) {
            var sum: Float = 0
            for bin in bins[band] where bin < power.count { sum += power[bin] }
            levels[band] = sum > 0 ? Swift.max(Self.floorDB, 10 * Float.log10(sum) - corrections[band]) : Self.floorDB
        }
    }

    /// The geometric center of each band, in Hz.
    public var centers: [Double] { (0 ..< count).map { (edges[$0] * edges[$0 + 1]).squareRoot() } }

    /// The band that holds `frequency`, if any.
    public func band(containing frequency: Double) -> Int? {
        guard frequency >= edges[0], frequency < edges[count] else { return nil }
        return (0 ..< count).first { frequency < edges[$0 + 1] }
    }

    /// The strongest frequency of a power spectrum up to `limit` Hz: between bins, from the
    /// parabola through the peak and its neighbors in dB; its level in dB is the power of the
    /// window's main lobe (three bins: a full-scale sine reads about 0).
    public func strongest(in power: UnsafeBufferPointer<Float>, upTo limit: Double) -> (hertz: Double, decibels: Float) {
        let last = Swift.min(power.count - 2, Int(limit / binWidth))
        guard last >= 2 else { return (0, SpectrumBands.floorDB) }
        var peak = 1
        for bin in 2 ... last where power[bin] > power[peak] { peak = bin }
        guard power[peak] > 0 else { return (0, SpectrumBands.floorDB) }
        func decibels(_ bin: Int) -> Double { 10 * Double.log10(Double(Swift.max(power[bin], 1e-30))) }
        let (below, at, above) = (decibels(peak - 1), decibels(peak), decibels(peak + 1))
        let curvature = below - 2 * at + above
        let shift = curvature < 0 ? Swift.max(-0.5, Swift.min(0.5, 0.5 * (below - above) / curvature)) : 0
        let lobe = Double(power[peak - 1] + power[peak] + power[peak + 1])
        return ((Double(peak) + shift) * binWidth, Float(10 * Double.log10(lobe)))
    }
}
