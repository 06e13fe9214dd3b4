import RealModule

/// Turns a block of samples into one spectrogram column: a Hann-windowed FFT, its power in dBFS
/// (a full-scale sine reads about 0) on `rowCount` rows of a log frequency axis. A row holds the
/// strongest bin within its stretch of frequencies or, where bins are wider than rows (the lows),
/// the power interpolated between the two bins around its center: no row is left empty.
public struct SpectrogramAnalysis {
    public let sampleRate: Int
    public let rowCount: Int
    public let axis: FrequencyAxis
    public var fftLength: Int { transform.length }
    /// The level of silence, in dB.
    public static let silence: Float = -200

    private let transform: any PowerSpectrumTransform
    private let window: HannWindow
    private var power: [Float]
    /// Per row: the bins it spans (`first...last`, maybe empty), or the two it lies between and how far.
    private let rows: [(first: Int, last: Int, between: Int, fraction: Float)]

    public init(sampleRate: Int, rowCount: Int, axis: FrequencyAxis = FrequencyAxis(), transform: any PowerSpectrumTransform) {
        self.sampleRate = sampleRate
        self.rowCount = rowCount
        self.axis = axis
        self.transform = transform
        window = HannWindow(length: transform.length)
        let binCount = transform.length / 2 + 1
        power = [Float](repeating: 0, count: binCount)
        let binWidth = Double(sampleRate) / Double(transform.length)
        rows = (0 ..< rowCount).map { row in
            let low = axis.hertz(atFraction: Double(row) / Double(rowCount))
            let high = axis.hertz(atFraction: Double(row + 1) / Double(rowCount))
            let center = axis.hertz(atFraction: (Double(row) + 0.5) / Double(rowCount))
            let first = Int((low / binWidth).rounded(.up)), last = min(binCount - 1, Int((high / binWidth).rounded(.down)))
            let position = min(Double(binCount - 1), center / binWidth)
            let between = min(binCount - 2, Int(position))
            return (first, last, between, Float(position - Double(between)))
        }
    }

    /// Writes the column of `samples` (`fftLength` of them, oldest first) into `column` (`rowCount` dB values).
    public mutating func column(of samples: UnsafeBufferPointer<Float>, into column: UnsafeMutableBufferPointer<Float>) {
        powers(of: samples, into: column)
        for row in 0 ..< rowCount { column[row] = Self.decibels(column[row]) }
    }

    /// dB of a row's power (`silence` for none).
    public static func decibels(_ power: Float) -> Float {
        power > 1e-20 ? 10 * Float.log10(power) : silence
    }

    /// The same column as powers (1: a full-scale sine), which add up across blocks.
    public mutating func powers(of samples: UnsafeBufferPointer<Float>, into column: UnsafeMutableBufferPointer<Float>) {
        precondition(samples.count == fftLength && column.count == rowCount, "a column takes fftLength samples into rowCount rows")
        window.coefficients.withUnsafeBufferPointer { window in
            power.withUnsafeMutableBufferPointer { power in
                transform.powerSpectrum(into: power, scale: self.window.powerScale) { input in
                    for index in 0 ..< input.count { input[index] = samples[index] * window[index] }
                }
            }
        }
        let nyquist = power.count - 1
        for (row, span) in rows.enumerated() {
            var value: Float
            if span.first <= span.last {
                value = 0
                for bin in span.first ... span.last { value = max(value, power[bin]) }
            } else if span.between >= nyquist {
                value = 0
            } else {
                value = power[span.between] + (power[span.between + 1] - power[span.between]) * span.fraction
            }
            column[row] = value
        }
    }
}
