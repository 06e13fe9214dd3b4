/// An overview made in pieces: where a file's frames are split so that pieces decoded apart (on
/// several cores) join into exactly the overview one pass would make. Every cut falls on a pair's
/// edge, so no pair straddles two pieces and the pieces' pairs simply follow each other.
public enum PeaksSegments {
    /// The first frame of each piece after the first (ascending, multiples of `samplesPerPixel`),
    /// for `count` pieces of about equal length over `frameCount` frames. Fewer cuts when the file
    /// is too short to give each piece at least one pair.
    public static func cuts(frameCount: Int64, count: Int, samplesPerPixel: Int) -> [Int64] {
        guard count > 1, frameCount > 0, samplesPerPixel > 0 else { return [] }
        let pairs = frameCount / Int64(samplesPerPixel)
        var cuts: [Int64] = []
        for index in 1 ..< count {
            let cut = pairs * Int64(index) / Int64(count) * Int64(samplesPerPixel)
            if cut > (cuts.last ?? 0) { cuts.append(cut) }
        }
        return cuts
    }

    /// The pieces' overviews joined in order, taken out of `pieces` as they are appended to the
    /// first (give it room for all: then nothing is copied twice and each piece is freed as it
    /// joins); nil, with `pieces` untouched, if they do not belong together (another rate, pair
    /// size or channel count) or a piece before the last ends with a partial pair.
    public static func join(_ pieces: inout [Peaks], frameCounts: [Int64]) -> Peaks? {
        guard let first = pieces.first, pieces.count == frameCounts.count else { return nil }
        for (index, piece) in pieces.enumerated().dropFirst() {
            guard piece.sampleRate == first.sampleRate, piece.samplesPerPixel == first.samplesPerPixel,
                  piece.channelCount == first.channelCount,
                  frameCounts[index - 1] % Int64(first.samplesPerPixel) == 0 else { return nil }
        }
        var joined = pieces.removeFirst()
        while !pieces.isEmpty {
            let piece = pieces.removeFirst()
            for channel in 0 ..< joined.channelCount { joined.pairs[channel].append(contentsOf: piece.pairs[channel]) }
        }
        return joined
    }
}
