import CEBUR128
import DecibarCore

/// EBU R128 loudness through libebur128: momentary, short-term and integrated loudness, loudness
/// range and true peak per channel. libebur128 is the reference implementation that ffmpeg's and
/// most meters' figures are checked against; a meter of our own would only differ from it.
///
/// Live, gating uses libebur128's histogram mode: integrated loudness and range need no list of
/// every block, so adding frames never allocates however long it runs, and memory stays fixed;
/// the price is 0.1 LU bins (a figure may read up to 0.05 LU off). A file's figures are the
/// deliverable, so `exact` keeps every 100 ms block instead (about 1 MB an hour). Not thread-safe:
/// one thread (the one that processes levels) adds and reads.
public final class LoudnessMeter: LoudnessAnalyzer {
    private var state: UnsafeMutablePointer<ebur128_state>?
    private var sampleRate = 0
    private var channelCount = 0

    private let mode: Int32

    public init(exact: Bool = false) {
        let measures = EBUR128_MODE_M.rawValue | EBUR128_MODE_S.rawValue | EBUR128_MODE_I.rawValue
            | EBUR128_MODE_LRA.rawValue | EBUR128_MODE_TRUE_PEAK.rawValue
        mode = Int32(exact ? measures : measures | EBUR128_MODE_HISTOGRAM.rawValue)
    }

    // ebur128_destroy dereferences the state it is given: never call it with none.
    deinit { if state != nil { ebur128_destroy(&state) } }

    public func add(_ buffer: AudioBuffer) {
        guard buffer.frameCount > 0 else { return }
        if buffer.sampleRate != sampleRate || buffer.channelCount != channelCount {
            start(sampleRate: buffer.sampleRate, channelCount: buffer.channelCount)
        }
        guard let state else { return }
        buffer.withSamples { samples in
            _ = ebur128_add_frames_float(state, samples.baseAddress, buffer.frameCount)
        }
    }

    public var reading: LoudnessReading {
        var reading = LoudnessReading(channelCount: channelCount)
        guard let state else { return reading }
        var value = 0.0
        if ebur128_loudness_momentary(state, &value) == 0 { reading.momentaryLUFS = LoudnessReading.gated(value) }
        if ebur128_loudness_shortterm(state, &value) == 0 { reading.shortTermLUFS = LoudnessReading.gated(value) }
        if ebur128_loudness_global(state, &value) == 0 { reading.integratedLUFS = LoudnessReading.gated(value) }
        if reading.integratedLUFS != nil, ebur128_loudness_range(state, &value) == 0, value.isFinite {
            reading.loudnessRangeLU = value
        }
        for channel in 0 ..< reading.channelCount where ebur128_true_peak(state, UInt32(channel), &value) == 0 {
            reading.setTruePeak(linear: value, channel: channel)
        }
        return reading
    }

    public func reset() {
        if sampleRate > 0 { start(sampleRate: sampleRate, channelCount: channelCount) }
    }

    private func start(sampleRate: Int, channelCount: Int) {
        if state != nil { ebur128_destroy(&state) }
        state = ebur128_init(UInt32(channelCount), UInt(sampleRate), mode)
        self.sampleRate = sampleRate
        self.channelCount = channelCount
    }
}
