/// How the window's background is drawn.
public enum BackgroundStyle: String, CaseIterable, Sendable {
    case opaque
    case chroma
    case transparent

    /// The color the window is cleared to.
    public func color(theme: BarTheme) -> Color {
        switch self {
        case .opaque: theme.background
        case .chroma: Color(hex: 0x00FF00)
        case .transparent: Color(red: 0, green: 0, blue: 0, alpha: 0)
        }
    }
}
