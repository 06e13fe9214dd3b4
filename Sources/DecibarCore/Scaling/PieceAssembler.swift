import RealModule

/// Puts the outputs of a `PitchScalingPlan`'s pieces, stretched separately, back into one output
/// of exactly `plan.outputCount` frames.
///
/// At each join the next piece is first aligned to the one before: two stretchers started at
/// different points give the same sound with different phases (and a few milliseconds of drift),
/// and a crossfade between them unaligned would dip or comb where they cancel. The offset within
/// `search` frames that correlates best (the channels summed; the smallest offset among equals)
/// is kept, then a crossfade of `crossfade` frames, centered on the join, hands over. Its gains
/// keep the power steady for the correlation found: the new piece rises as a raised cosine and
/// the old falls so that `old² + new² + 2·r·old·new = 1`, which is an equal-gain fade for the same
/// sound (r = 1) and an equal-power one for unrelated sounds (r = 0), so neither bulges nor dips.
/// Everything after the join comes from the new piece, shifted by that offset.
public struct PieceAssembler: Sendable {
    public let plan: PitchScalingPlan
    public let channelCount: Int
    public let crossfade: Int
    public let window: Int
    public let search: Int
    /// The output frames handed on so far.
    public private(set) var emittedFrames = 0
    /// The offset chosen at each join, in frames, and the correlation there (for the record and the tests).
    public private(set) var offsets: [Int] = []
    public private(set) var correlations: [Double] = []

    private var current: [Float] = []
    /// The output frame of `current`'s first frame.
    private var currentOrigin = 0
    private var added = 0
    private var chunk: [Float]

    public init(plan: PitchScalingPlan, channelCount: Int, sampleRate: Int) {
        self.plan = plan
        self.channelCount = channelCount
        crossfade = max(2, sampleRate / 50)
        window = max(4, sampleRate / 25)
        search = max(1, sampleRate / 50)
        chunk = Array(repeating: 0, count: 4096 * channelCount)
    }

    /// Takes the output of the next piece (in order) and hands on every output frame now final.
    public mutating func add(_ output: [Float], emit: (UnsafeBufferPointer<Float>) -> Void) {
        let index = added
        precondition(index < plan.pieces.count, "more pieces than planned")
        added += 1
        let origin = plan.pieces[index].outputOrigin
        if index == 0 {
            current = output
            currentOrigin = origin
        } else {
            let join = plan.joinOutput(index)
            let fadeStart = max(emittedFrames, join - crossfade / 2)
            let fadeEnd = min(plan.outputCount, max(fadeStart, join + crossfade / 2))
            handOn(upTo: fadeStart, emit)
            let (offset, correlation) = bestOffset(next: output, nextOrigin: origin, at: join)
            offsets.append(offset)
            correlations.append(correlation)
            let r = min(1, max(0, correlation))
            let nextOrigin = origin - offset
            // The crossfade, written through the chunk buffer.
            var frame = fadeStart
            while frame < fadeEnd {
                let count = min(fadeEnd - frame, chunk.count / channelCount)
                for step in 0 ..< count {
                    let position = frame + step
                    let phase = Double(position - fadeStart) + 0.5
                    let rising = 0.5 - 0.5 * Double.cos(Double.pi * phase / Double(fadeEnd - fadeStart))
                    let newGain = Float(rising)
                    let oldGain = Float(-r * rising + (1 - rising * rising * (1 - r * r)).squareRoot())
                    for channel in 0 ..< channelCount {
                        let old = Self.sample(current, at: position - currentOrigin, channel: channel, channels: channelCount)
                        let new = Self.sample(output, at: position - nextOrigin, channel: channel, channels: channelCount)
                        chunk[step * channelCount + channel] = old * oldGain + new * newGain
                    }
                }
                chunk.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0 ..< count * channelCount])) }
                frame += count
            }
            emittedFrames = fadeEnd
            current = output
            currentOrigin = nextOrigin
        }
        if added < plan.pieces.count { handOn(upTo: max(emittedFrames, plan.joinOutput(added) - crossfade / 2), emit) }
    }

    /// After the last piece: the rest, padded with silence to exactly `plan.outputCount` frames.
    public mutating func finish(emit: (UnsafeBufferPointer<Float>) -> Void) {
        precondition(added == plan.pieces.count, "pieces missing")
        handOn(upTo: plan.outputCount, emit)
    }

    /// Hands on the current piece's frames up to output frame `end` (silence past its end).
    private mutating func handOn(upTo end: Int, _ emit: (UnsafeBufferPointer<Float>) -> Void) {
        while emittedFrames < end {
            let count = min(end - emittedFrames, chunk.count / channelCount)
            for step in 0 ..< count {
                for channel in 0 ..< channelCount {
                    chunk[step * channelCount + channel] = Self.sample(current, at: emittedFrames + step - currentOrigin,
                                                                       channel: channel, channels: channelCount)
                }
            }
            chunk.withUnsafeBufferPointer { emit(UnsafeBufferPointer(rebasing: $0[0 ..< count * channelCount])) }
            emittedFrames += count
        }
    }

    /// The shift of `next` (frames later in its own output) that best matches `current` around `join`.
    private func bestOffset(next: [Float], nextOrigin: Int, at join: Int) -> (offset: Int, correlation: Double) {
        let first = join - window / 2
        var reference = [Float](repeating: 0, count: window)
        var referenceEnergy = 0.0
        for index in 0 ..< window {
            var sum: Float = 0
            for channel in 0 ..< channelCount {
                sum += Self.sample(current, at: first + index - currentOrigin, channel: channel, channels: channelCount)
            }
            reference[index] = sum
            referenceEnergy += Double(sum * sum)
        }
        guard referenceEnergy > 0 else { return (0, 0) }
        var candidate = [Float](repeating: 0, count: window + 2 * search)
        for index in candidate.indices {
            var sum: Float = 0
            for channel in 0 ..< channelCount {
                sum += Self.sample(next, at: first - search + index - nextOrigin, channel: channel, channels: channelCount)
            }
            candidate[index] = sum
        }
        var best = 0
        var bestScore = -Double.infinity
        // Offsets by growing size, so that among equal scores (a steady tone) the smallest wins.
        for magnitude in 0 ... search {
            for offset in magnitude == 0 ? [0] : [magnitude, -magnitude] {
                var product = 0.0
                var energy = 0.0
                let base = search + offset
                for index in 0 ..< window {
                    let value = Double(candidate[base + index])
                    product += Double(reference[index]) * value
                    energy += value * value
                }
                guard energy > 0 else { continue }
                let score = product / (referenceEnergy * energy).squareRoot()
                if score > bestScore + 1e-6 {
                    bestScore = score
                    best = offset
                }
            }
        }
        return (best, bestScore.isFinite ? bestScore : 0)
    }

    private static func sample(_ samples: [Float], at frame: Int, channel: Int, channels: Int) -> Float {
        let index = frame * channels + channel
        return frame >= 0 && index < samples.count ? samples[index] : 0
    }
}
