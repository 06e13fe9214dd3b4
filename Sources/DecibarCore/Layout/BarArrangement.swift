/// How bars (and spectrum bands) are laid out: side by side, or around a circle.
public enum BarArrangement: String, CaseIterable, Sendable {
    case linear
    case radial
}
