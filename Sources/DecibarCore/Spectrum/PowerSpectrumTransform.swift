/// A real FFT of a fixed length that writes `scale·|X[k]|²` per bin (FFTW's `FFTWTransform` in the
/// audio module; a test's plain DFT where FFTW is not the point).
public protocol PowerSpectrumTransform: AnyObject {
    var length: Int { get }
    /// Lets `fill` write the `length` input samples, then writes `scale·|X[k]|²` for the
    /// `length/2 + 1` bins into `power`.
    func powerSpectrum(into power: UnsafeMutableBufferPointer<Float>, scale: Float,
                       fill: (UnsafeMutableBufferPointer<Float>) -> Void)
}
