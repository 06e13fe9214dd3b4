import DecibarCore

/// The player's rate and pitch stage: pulls file audio from a `PlaybackSource`, stretches it in
/// real time and keeps track of which file frame each output frame comes from, so the playhead
/// stays in file time whatever the rate.
///
/// File time is counted on the output side: every frame retrieved at rate r moves it by r file
/// frames, from the frame where the stretch started (Rubber Band's start delay is dropped, so the
/// first frame out is the first frame in). It can never pass the input fed, and the output ends
/// where the input ends: a track at rate 2 lasts exactly half as long.
///
/// Only the sound server's thread uses it once made; making it (which allocates) is done elsewhere.
// Unchecked: made on one thread and then used by the sound server's thread alone (handed over
// under the mainloop's lock).
final class PlaybackStretch: @unchecked Sendable {
    let channelCount: Int
    private let stretcher: TimeStretcher
    private let input: UnsafeMutablePointer<Float>
    private let channelScratch: UnsafeMutablePointer<Float>
    private var rate = 1.0
    private var pitchScale = 1.0
    private var delayLeft = 0
    private var inputEnded = false
    private var isFinished = false
    /// File frame of the next output frame, and of the next input frame.
    private(set) var outputFileFrame = 0.0
    private(set) var inputFileFrame: Int64 = 0

    /// Nil when Rubber Band cannot handle this audio.
    init?(sampleRate: Int, channelCount: Int) {
        guard let stretcher = TimeStretcher(sampleRate: sampleRate, channelCount: channelCount, mode: .realTime) else {
            return nil
        }
        self.stretcher = stretcher
        self.channelCount = channelCount
        input = .allocate(capacity: stretcher.blockCapacity * channelCount)
        input.initialize(repeating: 0, count: stretcher.blockCapacity * channelCount)
        channelScratch = .allocate(capacity: stretcher.blockCapacity)
        channelScratch.initialize(repeating: 0, count: stretcher.blockCapacity)
    }

    deinit {
        input.deallocate()
        channelScratch.deallocate()
    }

    /// The most audio before the start that `start` reads from `history`.
    static let historyCapacity = 16384

    /// Starts stretching at `fileFrame`. `history` holds the audio just before it (zeros after a
    /// seek), which primes the stretcher so the join with what was played is seamless.
    func start(atFileFrame fileFrame: Int64, rate: Double, pitchScale: Double, history: SampleHistory) {
        stretcher.reset()
        self.rate = rate
        self.pitchScale = pitchScale
        stretcher.timeRatio = 1 / rate
        stretcher.pitchScale = pitchScale
        let pad = min(stretcher.startPad, history.capacity, stretcher.blockCapacity)
        if pad > 0 {
            for channel in 0..<channelCount {
                history.copyLatest(channel: min(channel, history.channelCount - 1),
                                   into: UnsafeMutableBufferPointer(start: channelScratch, count: pad))
                for frame in 0..<pad { input[frame * channelCount + channel] = channelScratch[frame] }
            }
            feedPad(frames: pad)
        }
        delayLeft = stretcher.startDelay
        outputFileFrame = Double(fileFrame)
        inputFileFrame = fileFrame
        inputEnded = false
        isFinished = false
    }

    /// Feeds the pad from `input` in blocks the stretcher takes.
    private func feedPad(frames: Int) {
        var fed = 0
        while fed < frames {
            let count = min(frames - fed, max(1, stretcher.samplesRequired))
            stretcher.process(UnsafeBufferPointer(start: input + fed * channelCount, count: count * channelCount), isFinal: false)
            fed += count
        }
    }

    /// Takes new ratios at once. A pitch change moves the stretcher's delay, and with it which
    /// file frame is coming out: the count follows.
    func apply(rate newRate: Double, pitchScale newPitch: Double) {
        if newPitch != pitchScale {
            let before = stretcher.startDelay
            stretcher.pitchScale = newPitch
            pitchScale = newPitch
            outputFileFrame += Double(before - stretcher.startDelay) * rate
            outputFileFrame = min(outputFileFrame, Double(inputFileFrame))
        }
        if newRate != rate {
            rate = newRate
            stretcher.timeRatio = 1 / newRate
        }
    }

    /// Fills up to `frames` frames of `buffer` with stretched audio; the answer means what a
    /// source's answer means. Sound server's thread: copies and Rubber Band's real-time work only.
    func render(from source: PlaybackSource, into buffer: UnsafeMutablePointer<Float>, frames: Int) -> PlaybackRender {
        var produced = 0
        var sourceFellBehind = false
        while produced < frames {
            if delayLeft > 0 {
                delayLeft -= stretcher.discard(frames: delayLeft)
            }
            if delayLeft == 0 {
                var wanted = frames - produced
                if inputEnded {
                    // Nothing past the input's end: the tail Rubber Band flushes is only its delay.
                    let left = (Double(inputFileFrame) - outputFileFrame) / rate
                    wanted = min(wanted, max(0, Int(left.rounded())))
                    if wanted == 0 { isFinished = true }
                }
                let got = wanted > 0 ? stretcher.retrieve(into: buffer + produced * channelCount, frames: wanted) : 0
                produced += got
                outputFileFrame = min(outputFileFrame + Double(got) * rate, Double(inputFileFrame))
                if produced == frames { break }
            }
            if isFinished || stretcher.available < 0 {
                isFinished = true
                return produced > 0 ? .last(frames: produced) : .ended
            }
            if inputEnded || sourceFellBehind {
                if stretcher.available > 0 { continue }
                if inputEnded { isFinished = true; return produced > 0 ? .last(frames: produced) : .ended }
                return .audio(frames: produced)
            }
            let wanted = max(1, stretcher.samplesRequired)
            switch source.render(into: input, frames: wanted) {
            case .audio(let count):
                feed(count, isFinal: false)
                if count < wanted { sourceFellBehind = true }
            case .last(let count):
                feed(count, isFinal: true)
            case .ended:
                feed(0, isFinal: true)
            case .waiting:
                return produced > 0 ? .audio(frames: produced) : .waiting
            }
        }
        return .audio(frames: produced)
    }

    private func feed(_ count: Int, isFinal: Bool) {
        stretcher.process(UnsafeBufferPointer(start: input, count: count * channelCount), isFinal: isFinal)
        inputFileFrame += Int64(count)
        if isFinal { inputEnded = true }
    }
}
