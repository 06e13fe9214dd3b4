/// What the scrubber shows of the whole track.
public enum ScrubberKind: String, CaseIterable, Sendable {
    /// The downsampled-max waveform.
    case waveform
    /// The track's spectrogram: time across, a log frequency axis up.
    case spectrogram
}
