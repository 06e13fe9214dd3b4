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
    /// The file's own first frames after a join, which the stretcher's first frames fade in over.
    private let fade: UnsafeMutablePointer<Float>
    private let fadeFrames: Int
    private var fadeFilled: Int
    private var fadeDone: Int
    /// Input frames Rubber Band takes in before a new ratio set now reaches its output (its
    /// look-ahead: measured 0.78 of its start pad at 22.05, 44.1 and 48 kHz).
    private let lookAhead: Int
    /// Ratios that Rubber Band takes once the input fed reaches a file frame (a join's run-up).
    private var pendingRatios: (rate: Double, pitchScale: Double, atInput: Int64)?
    /// A rate that the output counts at from a file frame on: a new ratio reaches the output only
    /// after the input already taken in (`lookAhead`).
    private var pendingRate: (rate: Double, atFile: Double)?
    /// File frames per output frame.
    private(set) var rate = 1.0
    private var pitchScale = 1.0
    private var delayLeft = 0
    private var inputEnded = false
    private var isFinished = false
    /// Silence fed after the input's end, and the most that is: Rubber Band's whole delay and
    /// pad twice over (what reaches the input's end is out well before).
    private var tailFed = 0
    private var tailLimit: Int { 2 * (stretcher.startPad + stretcher.startDelay) + stretcher.blockCapacity }
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
        fadeFrames = max(1, sampleRate / 100)
        fadeFilled = fadeFrames
        fadeDone = fadeFrames
        fade = .allocate(capacity: fadeFrames * channelCount)
        fade.initialize(repeating: 0, count: fadeFrames * channelCount)
        lookAhead = Int((Double(stretcher.startPad) * 0.78).rounded())
    }

    deinit {
        input.deallocate()
        channelScratch.deallocate()
        fade.deallocate()
    }

    /// Frames of what was just played that go through the stretcher at normal speed before a
    /// change of rate from normal: it then carries on from them without a step. (Started cold at
    /// the change, with only its pad, its first 10 ms came out at 40-60 % of their level: a click
    /// on a tone's crest.)
    static let runUp = 1024

    /// The most audio before the start that `start` reads from `history`.
    static let historyCapacity = 16384

    /// Starts stretching at `fileFrame`. `history` holds the audio just before it (nothing after a
    /// seek or at a track's start).
    /// - A change of rate alone, with enough history: the stretcher runs up through that audio at
    ///   normal speed and on through the file to `fileFrame` plus its look-ahead, then takes the
    ///   new rate, which it reaches at `fileFrame` exactly: it joins what was played without a
    ///   step, and the count of file frames holds.
    /// - A change of pitch (the waveform changes at the join whatever is done), or too little
    ///   history for a run-up: the stretcher starts at the new ratios, primed with the history,
    ///   and its first 10 ms fade in over the file's own frames (started cold, its first frames
    ///   are quieter). After a seek (no history) nothing is faded.
    func start(atFileFrame fileFrame: Int64, rate: Double, pitchScale: Double, history: SampleHistory) {
        stretcher.reset()
        outputFileFrame = Double(fileFrame)
        inputFileFrame = fileFrame
        inputEnded = false
        isFinished = false
        tailFed = 0
        fadeFilled = fadeFrames
        fadeDone = fadeFrames
        pendingRatios = nil
        pendingRate = nil
        self.rate = rate
        if pitchScale == 1 && history.filled >= stretcher.startPad + Self.runUp {
            self.pitchScale = 1
            stretcher.timeRatio = 1
            stretcher.pitchScale = 1
            feedHistory(history, frames: stretcher.startPad + Self.runUp)
            delayLeft = stretcher.startDelay + Self.runUp
            pendingRatios = (rate, 1, fileFrame + Int64(lookAhead))
        } else {
            self.pitchScale = pitchScale
            stretcher.timeRatio = 1 / rate
            stretcher.pitchScale = pitchScale
            feedHistory(history, frames: stretcher.startPad)
            delayLeft = stretcher.startDelay
            if history.filled > 0 {
                fadeFilled = 0
                fadeDone = 0
            }
        }
    }

    /// Feeds the newest `frames` of `history` (zeros where it has none), in blocks the stretcher takes.
    private func feedHistory(_ history: SampleHistory, frames wanted: Int) {
        let frames = min(wanted, history.capacity, stretcher.blockCapacity)
        guard frames > 0 else { return }
        for channel in 0..<channelCount {
            history.copyLatest(channel: min(channel, history.channelCount - 1),
                               into: UnsafeMutableBufferPointer(start: channelScratch, count: frames))
            for frame in 0..<frames { input[frame * channelCount + channel] = channelScratch[frame] }
        }
        feedPad(frames: frames)
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

    /// Takes new ratios. Rubber Band takes them at once, and its output follows after the input it
    /// has already taken in: the file frames count at the new rate from there. A pitch change
    /// moves the stretcher's delay, and with it which file frame is coming out: the count follows.
    func apply(rate newRate: Double, pitchScale newPitch: Double) {
        if let pending = pendingRatios {
            // Still running up to a join: it takes these there instead.
            pendingRatios = (newRate, newPitch, pending.atInput)
            rate = newRate
            return
        }
        if newPitch != pitchScale {
            let before = stretcher.startDelay
            stretcher.pitchScale = newPitch
            pitchScale = newPitch
            outputFileFrame += Double(before - stretcher.startDelay) * rate
            outputFileFrame = min(outputFileFrame, Double(inputFileFrame))
        }
        if newRate != (pendingRate?.rate ?? rate) {
            stretcher.timeRatio = 1 / newRate
            pendingRate = (newRate, max(outputFileFrame, Double(inputFileFrame - Int64(lookAhead))))
        }
    }

    /// Output frames until the rate the file frames count at changes (nil: none is coming), so that
    /// a caller marking file frames can end a stretch there.
    var framesAtThisRate: Int? {
        guard let pendingRate else { return nil }
        return max(0, Int(((pendingRate.atFile - outputFileFrame) / rate).rounded(.up)))
    }

    /// Counts `frames` output frames on in file frames, at the rate each went at.
    private func count(_ frames: Int) {
        var left = Double(frames)
        if let pending = pendingRate {
            let before = (pending.atFile - outputFileFrame) / rate
            if left >= before {
                outputFileFrame = pending.atFile
                left -= max(0, before)
                rate = pending.rate
                pendingRate = nil
            }
        }
        outputFileFrame = min(outputFileFrame + left * rate, Double(inputFileFrame))
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
                if fadeDone < fadeFrames { fadeIn(buffer + produced * channelCount, frames: got) }
                produced += got
                count(got)
                if produced == frames { break }
            }
            if isFinished || stretcher.available < 0 {
                isFinished = true
                return produced > 0 ? .last(frames: produced) : .ended
            }
            if inputEnded {
                if stretcher.available > 0 { continue }
                // The input's last frames are still inside Rubber Band (its delay): silence pushes
                // them out a block at a time, as the input did. A final call would process the
                // whole tail at once: 40 ms and more on a busy machine, longer than the lead.
                if tailFed < tailLimit {
                    feedSilence()
                    continue
                }
                isFinished = true
                return produced > 0 ? .last(frames: produced) : .ended
            }
            if sourceFellBehind {
                if stretcher.available > 0 { continue }
                return .audio(frames: produced)
            }
            var wanted = max(1, stretcher.samplesRequired)
            if let pending = pendingRatios {
                // The run-up reaches its end exactly; the new ratios go in there.
                if inputFileFrame >= pending.atInput {
                    stretcher.timeRatio = 1 / pending.rate
                    stretcher.pitchScale = pending.pitchScale
                    pitchScale = pending.pitchScale
                    pendingRatios = nil
                    continue
                }
                wanted = min(wanted, Int(pending.atInput - inputFileFrame))
            }
            switch source.render(into: input, frames: wanted) {
            case .audio(let count):
                feed(count)
                if count < wanted { sourceFellBehind = true }
            case .last(let count):
                feed(count)
                inputEnded = true
            case .ended:
                inputEnded = true
            case .waiting:
                return produced > 0 ? .audio(frames: produced) : .waiting
            }
        }
        return .audio(frames: produced)
    }

    /// Mixes the stretcher's first frames after a join with the file's own, from all file to all
    /// stretcher (the file's frames were kept as they went in, well before these came out).
    private func fadeIn(_ frames: UnsafeMutablePointer<Float>, frames count: Int) {
        var index = 0
        while index < count && fadeDone < fadeFrames {
            let weight = Float(fadeDone) / Float(fadeFrames)
            let own = fadeDone < fadeFilled ? fade + fadeDone * channelCount : nil
            for channel in 0..<channelCount {
                let sample = frames[index * channelCount + channel]
                frames[index * channelCount + channel] = weight * sample + (1 - weight) * (own?[channel] ?? sample)
            }
            index += 1
            fadeDone += 1
        }
    }

    /// Feeds one block of silence after the input's end.
    private func feedSilence() {
        let count = min(max(1, stretcher.samplesRequired), stretcher.blockCapacity)
        input.update(repeating: 0, count: count * channelCount)
        stretcher.process(UnsafeBufferPointer(start: input, count: count * channelCount), isFinal: false)
        tailFed += count
    }

    private func feed(_ count: Int) {
        if fadeFilled < fadeFrames {
            let kept = min(count, fadeFrames - fadeFilled)
            (fade + fadeFilled * channelCount).update(from: input, count: kept * channelCount)
            fadeFilled += kept
        }
        stretcher.process(UnsafeBufferPointer(start: input, count: count * channelCount), isFinal: false)
        inputFileFrame += Int64(count)
    }
}
