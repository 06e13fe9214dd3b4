import DecibarCore
import CFFTW
import Synchronization

/// FFTW, opened on first use (see CLoader.h).
let fftwLibrary = LoadedLibrary<DecibarFFTW> { decibar_fftw_load($0, $1) }
/// Its functions; reached only once `fftwLibrary` loaded.
var fftwFunctions: DecibarFFTW { fftwLibrary.table! }

/// A real-to-complex FFT of a fixed length (FFTW, single precision), planned once and reused.
///
/// Input and output buffers are FFTW's own (aligned for SIMD) and live as long as the transform,
/// so `powerSpectrum` allocates nothing. One instance belongs to one thread at a time.
public final class FFTWTransform {
    public let length: Int
    private let input: UnsafeMutablePointer<Float>
    private let output: UnsafeMutablePointer<fftwf_complex>
    private let plan: fftwf_plan

    /// FFTW's planner is not thread-safe; every plan is made under this lock.
    private static let planner = Mutex(())

    /// Number of frequency bins: `length/2 + 1`, from 0 Hz to Nyquist.
    public var binCount: Int { length / 2 + 1 }

    /// - Parameter measured: let FFTW time candidate algorithms (FFTW_MEASURE) for a faster plan;
    ///   planning then takes some milliseconds instead of microseconds.
    public init?(length: Int, measured: Bool = false) {
        guard fftwLibrary.table != nil, length >= 2, length.isMultiple(of: 2),
              let input = fftwFunctions.fftwf_alloc_real!(length),
              let output = fftwFunctions.fftwf_alloc_complex!(length / 2 + 1) else { return nil }
        let made = Self.planner.withLock { _ in
            PlanHandle(plan: fftwFunctions.fftwf_plan_dft_r2c_1d!(Int32(length), input, output, measured ? FFTW_MEASURE : FFTW_ESTIMATE))
        }.plan
        guard let made else {
            fftwFunctions.fftwf_free!(input)
            fftwFunctions.fftwf_free!(output)
            return nil
        }
        self.length = length
        self.input = input
        self.output = output
        self.plan = made
    }

    deinit {
        let handle = PlanHandle(plan: plan)
        Self.planner.withLock { _ in fftwFunctions.fftwf_destroy_plan!(handle.plan) }
        fftwFunctions.fftwf_free!(input)
        fftwFunctions.fftwf_free!(output)
    }

    /// Transforms `samples` (exactly `length` of them, already windowed) and writes `|X[k]|²`
    /// for every bin into `power` (`binCount` values).
    public func powerSpectrum(of samples: UnsafeBufferPointer<Float>, into power: UnsafeMutableBufferPointer<Float>) {
        precondition(samples.count == length, "buffer sizes do not match the plan")
        powerSpectrum(into: power) { input in _ = input.update(fromContentsOf: samples) }
    }

    /// Lets `fill` write the `length` input samples straight into FFTW's own aligned buffer
    /// (saving a copy per transform), then writes `scale·|X[k]|²` for every bin into `power`.
    public func powerSpectrum(into power: UnsafeMutableBufferPointer<Float>, scale: Float = 1,
                              fill: (UnsafeMutableBufferPointer<Float>) -> Void) {
        precondition(power.count == binCount, "buffer sizes do not match the plan")
        fill(UnsafeMutableBufferPointer(start: input, count: length))
        fftwFunctions.fftwf_execute!(plan)
        for bin in 0 ..< binCount {
            let (real, imaginary) = output[bin]
            power[bin] = (real * real + imaginary * imaginary) * scale
        }
    }
}

/// Carries a plan pointer across the planner lock; the plan itself is only used by its owner.
private struct PlanHandle: @unchecked Sendable {
    let plan: fftwf_plan?
}

extension FFTWTransform: PowerSpectrumTransform {}
