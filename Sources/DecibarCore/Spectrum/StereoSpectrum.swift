/// Arranges band values across the screen: the left channel mirrored on the left half and the
/// right channel on the right, lows meeting in the center (or at the edges). A mono source fills
/// both halves with its one channel.
public enum StereoSpectrum {
    /// `channels[c][band]`, bands low to high. Returns `2 × bands` values, left to right.
    public static func arrange(_ channels: [[Float]], lowsAtEdges: Bool = false, into values: inout [Float]) {
        guard let first = channels.first else { values.removeAll(); return }
        let left = first
        let right = channels.count > 1 ? channels[1] : first
        let bands = left.count
        if values.count != 2 * bands { values = Array(repeating: 0, count: 2 * bands) }
        for band in 0 ..< bands {
            if lowsAtEdges {
                values[band] = left[band]
                values[2 * bands - 1 - band] = right[band]
            } else {
                values[bands - 1 - band] = left[band]
                values[bands + band] = right[band]
            }
        }
    }

    /// The screen positions (indices into the arranged values) where `band` of each channel sits.
    public static func positions(ofBand band: Int, bandCount: Int, lowsAtEdges: Bool = false) -> (left: Int, right: Int) {
        lowsAtEdges ? (band, 2 * bandCount - 1 - band) : (bandCount - 1 - band, bandCount + band)
    }
}
