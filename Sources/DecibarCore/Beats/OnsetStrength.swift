import RealModule

/// How much new sound starts in each hop: log-compressed spectral flux over log-spaced bands.
///
/// Each hop's power spectrum is summed into bands, each band compressed as `log(1 + λ·power)`
/// (so a quiet intro and a loud chorus give the same flux for the same relative rise), and the
/// rises against the spectrum two hops before (half a window apart: at 75 % overlap one hop
/// hardly differs) are added up. Falls count nothing. Storage is made once; `strength` allocates
/// nothing.
public struct OnsetStrength {
    /// Bands of the flux; lower edges in bins, the last entry the end of the last band.
    public let bandEdges: [Int]
    /// Power is compressed from about -60 dB of a full-scale sine's bin upward.
    static let compression: Float = 1e6
    /// Hops between the spectra compared.
    static let lag = 2
    /// Band levels of the last `lag` hops, oldest first, then the newest.
    private var history: [Float]
    private var filled = 0

    /// - Parameters:
    ///   - binCount: bins of the power spectra given (`fftLength/2 + 1`).
    ///   - binWidth: Hz per bin.
    ///   A spectrum that ends below `lowHz` (a stream of a few hertz) gets its top bins as bands:
    ///   nothing musical, but never a band past its end.
    public init(binCount: Int, binWidth: Double, bandCount: Int = 24, lowHz: Double = 30, highHz: Double = 16000) {
        let lastBin = max(2, binCount - 1)
        func bin(_ hertz: Double) -> Int { Int(min(Double(lastBin), max(1, (hertz / binWidth).rounded()))) }
        let lowBin = min(bin(lowHz), lastBin - 1)
        let highBin = max(lowBin + 1, bin(highHz))
        var edges = [lowBin]
        for band in 1 ... max(1, bandCount) {
            let edge = Int((Double(lowBin) * Double.pow(Double(highBin) / Double(lowBin), Double(band) / Double(bandCount))).rounded())
            // Every band at least one bin wide: narrow low bands are pushed up.
            edges.append(max(edge, edges[edges.count - 1] + 1))
        }
        bandEdges = edges.filter { $0 <= highBin + 1 }
        history = Array(repeating: 0, count: (Self.lag + 1) * (bandEdges.count - 1))
    }

    public var bandCount: Int { bandEdges.count - 1 }

    /// The onset strength of the hop whose power spectrum is `power` (normalized so a full-scale
    /// sine's bin is about 1). The first `lag` hops read 0: there is nothing to compare yet.
    public mutating func strength(fromPower power: UnsafeBufferPointer<Float>) -> Float {
        let bands = bandCount
        var flux: Float = 0
        history.withUnsafeMutableBufferPointer { history in
            // Move the older levels down one hop; the newest go at the end.
            for index in 0 ..< Self.lag * bands { history[index] = history[index + bands] }
            let newest = Self.lag * bands
            for band in 0 ..< bands {
                var sum: Float = 0
                let end = min(bandEdges[band + 1], power.count)
                for bin in min(bandEdges[band], end) ..< end { sum += power[bin] }
                let level = Float.log(1 + Self.compression * sum)
                history[newest + band] = level
                flux += max(0, level - history[band])
            }
        }
        filled = min(filled + 1, Self.lag + 1)
        return filled > Self.lag ? flux : 0
    }

    /// Forgets the past (a seek, a new stream).
    public mutating func reset() {
        filled = 0
        for index in history.indices { history[index] = 0 }
    }
}
