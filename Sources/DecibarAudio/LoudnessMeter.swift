import CEBUR128
import DecibarCore

/// libebur128, opened on first use (see CLoader.h).
let ebur128Library = LoadedLibrary<DecibarEBUR128> { decibar_ebur128_load($0, $1) }
/// Its functions; reached only once `ebur128Library` loaded.
var ebur128Functions: DecibarEBUR128 { ebur128Library.table! }

/// EBU R128 loudness through libebur128: momentary, short-term and integrated loudness, loudness
/// range and true peak per channel. libebur128 is the reference implementation that ffmpeg's and
/// most meters' figures are checked against; a meter of our own would only differ from it.
///
/// Live, gating uses libebur128's histogram mode: integrated loudness and range need no list of
/// every block, so adding frames never allocates however long it runs, and memory stays fixed;
/// the price is 0.1 LU bins (a figure may read up to 0.05 LU off). A file's figures are the
/// deliverable, so `exact` keeps every 100 ms block instead (about 1 MB an hour). Not thread-safe:
/// one thread (the one that processes levels) adds and reads.
///
/// Momentary and short-term loudness come from the energies of the 100 ms blocks, read from
/// libebur128 once per block and averaged here (4 and 30 of them), as the standard has them
/// updated: asking libebur128 for the 3 s window at every reading summed 144 000 squares per
/// channel each time, most of what the meter cost.
///
/// True peak (4x oversampling below 96 kHz) costs three times the rest. A second state measures
/// it, fed only the blocks `TruePeakGate` finds can raise it, which gives the same peak to the bit
/// (`LoudnessMeterTests`) for a fraction of the work once a loud passage has set it.
public final class LoudnessMeter: LoudnessAnalyzer {
    private var state: UnsafeMutablePointer<ebur128_state>?
    /// Only true peak (libebur128 always adds momentary loudness, unused here).
    private var peakState: UnsafeMutablePointer<ebur128_state>?
    private var gate: TruePeakGate?
    private var sampleRate = 0
    private var channelCount = 0
    /// Frames in a 100 ms block (libebur128's rounding), and how many of the current one were added.
    private var blockFrames = 4800
    private var framesInBlock = 0
    private var blockEnergies = BlockEnergies()

    private let mode: Int32
    private let gatesTruePeak: Bool
    /// Blocks added since the start (or the last reset), and how many of them were oversampled.
    public private(set) var blockCount = 0
    public private(set) var oversampledBlockCount = 0

    /// - Parameter gatesTruePeak: oversample only the blocks that can raise the true peak (the
    ///   same figures; false runs every block through, for comparison).
    /// Why libebur128 cannot be loaded (checked before a meter is made), or nil.
    public static var libraryFailure: String? { ebur128Library.failure }

    public init(exact: Bool = false, gatesTruePeak: Bool = true) {
        let measures = EBUR128_MODE_M.rawValue | EBUR128_MODE_S.rawValue | EBUR128_MODE_I.rawValue
            | EBUR128_MODE_LRA.rawValue | (gatesTruePeak ? 0 : EBUR128_MODE_TRUE_PEAK.rawValue)
        mode = Int32(exact ? measures : measures | EBUR128_MODE_HISTOGRAM.rawValue)
        self.gatesTruePeak = gatesTruePeak
    }

    // ebur128_destroy dereferences the state it is given: never call it with none.
    deinit {
        if state != nil { ebur128Functions.ebur128_destroy!(&state) }
        if peakState != nil { ebur128Functions.ebur128_destroy!(&peakState) }
    }

    /// The largest sum of absolute weights over the phases of libebur128's (1.2) interpolator, a
    /// 49-tap Hann-windowed sinc: 4x below 96 kHz, 2x below 192 kHz, none above (the true peak is
    /// the sample peak). Worked out from its coefficients and rounded up.
    static func interpolationGain(sampleRate: Int) -> Double {
        sampleRate < 96_000 ? 1.8643 : sampleRate < 192_000 ? 2.3069 : 1
    }

    public func add(_ buffer: AudioBuffer) {
        guard buffer.frameCount > 0 else { return }
        if buffer.sampleRate != sampleRate || buffer.channelCount != channelCount {
            start(sampleRate: buffer.sampleRate, channelCount: buffer.channelCount)
        }
        guard let state else { return }
        buffer.withSamples { samples in
            // Fed up to each block's end, where that block's energy is read.
            var offset = 0
            while offset < buffer.frameCount, let base = samples.baseAddress {
                let frames = min(buffer.frameCount - offset, blockFrames - framesInBlock)
                _ = ebur128Functions.ebur128_add_frames_float!(state, base + offset * channelCount, frames)
                offset += frames
                framesInBlock += frames
                if framesInBlock == blockFrames {
                    framesInBlock = 0
                    var lufs = -Double.infinity
                    _ = ebur128Functions.ebur128_loudness_window!(state, 100, &lufs)
                    blockEnergies.append(lufs.isFinite ? BlockEnergies.energy(lufs: lufs) : 0)
                }
            }
            measureTruePeak(samples, frames: buffer.frameCount)
        }
    }

    private func measureTruePeak(_ samples: UnsafeBufferPointer<Float>, frames: Int) {
        guard let peakState, var gate = self.gate else { return }
        let measured = gate.needsMeasuring(samples, frames: frames)
        blockCount += 1
        if measured {
            oversampledBlockCount += 1
            if !gate.interpolatorIsCurrent {
                // Its history is of a block it missed: replace it with the frames just before.
                gate.withHistory { _ = ebur128Functions.ebur128_add_frames_float!(peakState, $0.baseAddress, TruePeakGate.historyFrames) }
            }
            _ = ebur128Functions.ebur128_add_frames_float!(peakState, samples.baseAddress, frames)
            var value = 0.0
            for channel in 0 ..< channelCount where ebur128Functions.ebur128_prev_true_peak!(peakState, UInt32(channel), &value) == 0 {
                gate.record(peak: value, channel: channel)
            }
        }
        gate.advance(past: samples, frames: frames, measured: measured)
        self.gate = gate
    }

    public var reading: LoudnessReading {
        var reading = LoudnessReading(channelCount: channelCount)
        guard let state else { return reading }
        var value = 0.0
        reading.momentaryLUFS = LoudnessReading.gated(blockEnergies.loudness(ofLast: 4))
        reading.shortTermLUFS = LoudnessReading.gated(blockEnergies.loudness(ofLast: BlockEnergies.capacity))
        if ebur128Functions.ebur128_loudness_global!(state, &value) == 0 { reading.integratedLUFS = LoudnessReading.gated(value) }
        if reading.integratedLUFS != nil, ebur128Functions.ebur128_loudness_range!(state, &value) == 0, value.isFinite {
            reading.loudnessRangeLU = value
        }
        if let gate {
            for channel in 0 ..< reading.channelCount { reading.setTruePeak(linear: gate.peak(channel: channel), channel: channel) }
        } else {
            for channel in 0 ..< reading.channelCount where ebur128Functions.ebur128_true_peak!(state, UInt32(channel), &value) == 0 {
                reading.setTruePeak(linear: value, channel: channel)
            }
        }
        return reading
    }

    public func reset() {
        if sampleRate > 0 { start(sampleRate: sampleRate, channelCount: channelCount) }
    }

    private func start(sampleRate: Int, channelCount: Int) {
        // Without libebur128 the meter stays empty (its readings say nothing); the commands that
        // need figures check `libraryFailure` first and say why in one line.
        guard ebur128Library.table != nil else { return }
        if state != nil { ebur128Functions.ebur128_destroy!(&state) }
        if peakState != nil { ebur128Functions.ebur128_destroy!(&peakState) }
        state = ebur128Functions.ebur128_init!(UInt32(channelCount), UInt(sampleRate), mode)
        blockFrames = (sampleRate + 5) / 10
        framesInBlock = 0
        blockEnergies = BlockEnergies()
        gate = nil
        blockCount = 0
        oversampledBlockCount = 0
        if gatesTruePeak, (1 ... TruePeakGate.maximumChannels).contains(channelCount) {
            peakState = ebur128Functions.ebur128_init!(UInt32(channelCount), UInt(sampleRate), Int32(EBUR128_MODE_TRUE_PEAK.rawValue))
            if peakState != nil {
                gate = TruePeakGate(channelCount: channelCount, gain: Self.interpolationGain(sampleRate: sampleRate))
            }
        }
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}
