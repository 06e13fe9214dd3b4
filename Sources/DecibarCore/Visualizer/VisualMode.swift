/// What the visualizer draws.
public enum VisualMode: String, CaseIterable, Sendable {
    case bars
    case spectrum
    case spectrogram
    case scope
    case meter
    case milkdrop

    /// The mode after this one, for the m key.
    public var next: VisualMode {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}
