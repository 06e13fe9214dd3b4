/// Where bars grow from: the middle (up and down at once), the bottom or the top.
public enum BarOrientation: String, Sendable, CaseIterable {
    case center
    case bottom
    case top
}
