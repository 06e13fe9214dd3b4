import DecibarCore
import CRubberBand

/// Rubber Band, opened on first use (see CLoader.h).
let rubberbandLibrary = LoadedLibrary<DecibarRubberBand> { decibar_rubberband_load($0, $1) }
/// Its functions; reached only once `rubberbandLibrary` loaded.
var rubberbandFunctions: DecibarRubberBand { rubberbandLibrary.table! }

/// Changes the speed and the pitch of audio independently, through the Rubber Band Library's R3
/// ("finer") engine. Rubber Band is the best-sounding stretcher packaged for Debian and is well
/// kept; a phase vocoder of our own would only sound worse.
///
/// Takes and gives interleaved float frames; Rubber Band wants one buffer per channel, so frames
/// pass through buffers made once here. In real-time mode nothing here allocates after `init`, as
/// long as no more than `samplesRequired` frames (and never more than `blockCapacity`) go in at a
/// time. Not thread-safe: one thread feeds, retrieves and changes the ratios.
public final class TimeStretcher {
    public enum Mode: Sendable {
        /// Ratios may change at any time; output follows input with a fixed delay.
        case realTime
        /// Two passes over the whole input (`study`, then `process`), for the exact length.
        case offline
    }

    public let sampleRate: Int
    public let channelCount: Int
    /// The most frames handed over in one call to Rubber Band.
    public let blockCapacity: Int

    private let state: RubberBandState
    private let planar: UnsafeMutablePointer<Float>
    private let inputChannels: UnsafeMutablePointer<UnsafePointer<Float>?>
    private let outputChannels: UnsafeMutablePointer<UnsafeMutablePointer<Float>?>

    /// The lowest rate its finer engine takes: below, it stretches all the same but writes a
    /// warning to stderr at every block.
    public static let minimumSampleRate = 8000

    /// Nil when Rubber Band cannot be set up for this audio (below `minimumSampleRate`), or has no R3 engine.
    /// - Parameters:
    ///   - timeRatio: output duration over input duration (2: twice as long, half the speed).
    ///   - pitchScale: output frequency over input frequency (2: an octave up).
    public init?(sampleRate: Int, channelCount: Int, mode: Mode, timeRatio: Double = 1, pitchScale: Double = 1,
                 blockCapacity: Int = 16384) {
        guard rubberbandLibrary.table != nil, sampleRate >= Self.minimumSampleRate, channelCount > 0, blockCapacity > 0 else { return nil }
        var options = RubberBandOptionEngineFiner.rawValue
        if mode == .realTime { options |= RubberBandOptionProcessRealTime.rawValue }
        guard let state = rubberbandFunctions.rubberband_new!(UInt32(sampleRate), UInt32(channelCount), RubberBandOptions(bitPattern: options),
                                         timeRatio, pitchScale) else { return nil }
        // Unknown option bits are ignored silently: make sure the finer engine is the one running.
        guard rubberbandFunctions.rubberband_get_engine_version!(state) == 3 else {
            rubberbandFunctions.rubberband_delete!(state)
            return nil
        }
        self.state = state
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.blockCapacity = blockCapacity
        rubberbandFunctions.rubberband_set_max_process_size!(state, UInt32(blockCapacity))
        planar = .allocate(capacity: blockCapacity * channelCount)
        planar.initialize(repeating: 0, count: blockCapacity * channelCount)
        inputChannels = .allocate(capacity: channelCount)
        outputChannels = .allocate(capacity: channelCount)
        for channel in 0..<channelCount {
            inputChannels[channel] = UnsafePointer(planar + channel * blockCapacity)
            outputChannels[channel] = planar + channel * blockCapacity
        }
    }

    deinit {
        rubberbandFunctions.rubberband_delete!(state)
        planar.deallocate()
        inputChannels.deallocate()
        outputChannels.deallocate()
    }

    /// Output duration over input duration. Real-time mode takes a change at once.
    public var timeRatio: Double {
        get { rubberbandFunctions.rubberband_get_time_ratio!(state) }
        set { rubberbandFunctions.rubberband_set_time_ratio!(state, newValue) }
    }

    /// Output frequency over input frequency.
    public var pitchScale: Double {
        get { rubberbandFunctions.rubberband_get_pitch_scale!(state) }
        set { rubberbandFunctions.rubberband_set_pitch_scale!(state, newValue) }
    }

    /// Frames of silence (or of the audio just before) to feed first in real-time mode, so that
    /// the first real frame is not swallowed. Depends on the ratios set.
    public var startPad: Int { Int(rubberbandFunctions.rubberband_get_preferred_start_pad!(state)) }

    /// Output frames to drop once `startPad` frames went in: the next one is the first real frame.
    public var startDelay: Int { Int(rubberbandFunctions.rubberband_get_start_delay!(state)) }

    /// How many input frames the next `process` wants before it can give more output.
    public var samplesRequired: Int { min(blockCapacity, Int(rubberbandFunctions.rubberband_get_samples_required!(state))) }

    /// Output frames ready to retrieve; -1 once the final input has all come out.
    public var available: Int { Int(rubberbandFunctions.rubberband_available!(state)) }

    /// Offline: the total input, so the output is exactly `timeRatio` times as long.
    public func setExpectedInputDuration(_ frames: Int) {
        rubberbandFunctions.rubberband_set_expected_input_duration!(state, UInt32(clamping: frames))
    }

    /// Forgets all input (a seek); the ratios stay.
    public func reset() { rubberbandFunctions.rubberband_reset!(state) }

    /// Offline first pass: every input frame, in order; `isFinal` with the last.
    public func study(_ interleaved: UnsafeBufferPointer<Float>, isFinal: Bool) {
        feed(interleaved, isFinal: isFinal) { rubberbandFunctions.rubberband_study!(state, inputChannels, UInt32($0), $1 ? 1 : 0) }
    }

    /// Stretches interleaved frames (in real-time mode, at most `samplesRequired`); `isFinal` with
    /// the last of them.
    public func process(_ interleaved: UnsafeBufferPointer<Float>, isFinal: Bool) {
        feed(interleaved, isFinal: isFinal) { rubberbandFunctions.rubberband_process!(state, inputChannels, UInt32($0), $1 ? 1 : 0) }
    }

    /// Feeds `frames` frames of silence (the real-time start pad).
    public func processSilence(frames: Int) {
        var remaining = frames
        while remaining > 0 {
            let count = min(remaining, blockCapacity, max(1, Int(rubberbandFunctions.rubberband_get_samples_required!(state))))
            for channel in 0..<channelCount { (planar + channel * blockCapacity).update(repeating: 0, count: count) }
            rubberbandFunctions.rubberband_process!(state, inputChannels, UInt32(count), 0)
            remaining -= count
        }
    }

    /// Copies up to `frames` ready output frames into `interleaved`; returns how many.
    public func retrieve(into interleaved: UnsafeMutablePointer<Float>, frames: Int) -> Int {
        var done = 0
        while done < frames {
            let ready = Int(rubberbandFunctions.rubberband_available!(state))
            guard ready > 0 else { break }
            let count = min(frames - done, ready, blockCapacity)
            let got = Int(rubberbandFunctions.rubberband_retrieve!(state, outputChannels, UInt32(count)))
            guard got > 0 else { break }
            let target = interleaved + done * channelCount
            for channel in 0..<channelCount {
                let source = planar + channel * blockCapacity
                for frame in 0..<got { target[frame * channelCount + channel] = source[frame] }
            }
            done += got
        }
        return done
    }

    /// Drops up to `frames` ready output frames (the start delay); returns how many.
    public func discard(frames: Int) -> Int {
        var done = 0
        while done < frames {
            let ready = Int(rubberbandFunctions.rubberband_available!(state))
            guard ready > 0 else { break }
            let got = Int(rubberbandFunctions.rubberband_retrieve!(state, outputChannels, UInt32(min(frames - done, ready, blockCapacity))))
            guard got > 0 else { break }
            done += got
        }
        return done
    }

    /// Splits `interleaved` into blocks that fit, copies each into the per-channel buffers and
    /// hands it on; only the last block carries `isFinal`.
    private func feed(_ interleaved: UnsafeBufferPointer<Float>, isFinal: Bool, _ hand: (Int, Bool) -> Void) {
        let frames = interleaved.count / channelCount
        guard frames > 0, let base = interleaved.baseAddress else {
            if isFinal { hand(0, true) }
            return
        }
        var start = 0
        while start < frames {
            let count = min(blockCapacity, frames - start)
            let source = base + start * channelCount
            for channel in 0..<channelCount {
                let target = planar + channel * blockCapacity
                for frame in 0..<count { target[frame] = source[frame * channelCount + channel] }
            }
            start += count
            hand(count, isFinal && start == frames)
        }
    }
}
