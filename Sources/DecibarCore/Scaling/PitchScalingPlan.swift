/// How `scale --keep-pitch` cuts a file in time so that several stretchers (one per core) work
/// at once: pieces of about `pieceSeconds`, each read with a lead-in and a run-out of
/// `overlapSeconds` so that its stretcher has settled where its part begins and is still going
/// where it ends. Consecutive pieces meet at a join, where the output crossfades from one to the
/// next (`PieceJoin`). The whole output is `Int(inputCount * factor)` frames, as in one piece.
public struct PitchScalingPlan: Sendable, Equatable {
    public struct Piece: Sendable, Equatable {
        public let index: Int
        /// The piece's own input frames: from the join with the previous piece to the next's.
        public let start: Int
        public let end: Int
        /// The input frames its stretcher reads (its own, with the lead-in and run-out).
        public let readStart: Int
        public let readEnd: Int
        /// Where its stretcher's first output frame belongs in the whole output.
        public let outputOrigin: Int
    }

    public let inputCount: Int
    public let outputCount: Int
    public let factor: Double
    public let pieces: [Piece]

    public init(inputCount: Int, factor: Double, sampleRate: Int, pieceSeconds: Double = 15, overlapSeconds: Double = 0.5) {
        let total = max(0, inputCount)
        self.inputCount = total
        self.factor = factor
        outputCount = TimeScaleRamp.outputCount(inputCount: total, factor: factor)
        let pieceFrames = max(1.0, pieceSeconds * Double(sampleRate))
        let count = max(1, Int((Double(total) / pieceFrames).rounded()))
        let overlap = Int(overlapSeconds * Double(sampleRate))
        let bounds = (0 ... count).map { total * $0 / count }
        pieces = (0 ..< count).map { index in
            let readStart = max(0, bounds[index] - overlap)
            return Piece(index: index, start: bounds[index], end: bounds[index + 1], readStart: readStart,
                         readEnd: min(total, bounds[index + 1] + overlap),
                         outputOrigin: Int((Double(readStart) * factor).rounded()))
        }
    }

    /// The output frame at which piece `index` (not the first) takes over from the one before.
    public func joinOutput(_ index: Int) -> Int {
        min(outputCount, Int((Double(pieces[index].start) * factor).rounded()))
    }
}
