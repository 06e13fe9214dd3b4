/// What turns the newest samples into spectrum band levels (FFTW's `SpectrumAnalyzer` in the
/// audio module; a test's own stand-in where FFTW is not the point).
public protocol BandAnalyzer: AnyObject {
    var bands: SpectrumBands { get }
    /// Band levels in dB, `[channel][band]`, of the newest samples `fill(channel, destination)` copies in.
    func analyze(fill: (Int, UnsafeMutableBufferPointer<Float>) -> Void) -> [[Float]]
}
