/// An overview made in pieces: where a file's frames are split so that pieces decoded apart (on
/// several cores) join into exactly the overview one pass would make. Every cut falls on a pair's
/// edge, so no pair straddles two pieces and each piece's pairs start at its cut ÷ `samplesPerPixel`.
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
}
