/// Where a video's picture goes in the player window: behind the bars (whose background is then
/// the picture), in a panel above them, or nowhere (the audio alone, as for a music file).
public enum VideoLayout: String, CaseIterable, Sendable {
    case under
    case above
    case off
}
