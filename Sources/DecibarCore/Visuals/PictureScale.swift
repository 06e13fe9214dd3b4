/// How much of the window's width and height a costly picture (a Milkdrop preset, a user's shader)
/// is drawn at before it is scaled up: `milkdrop_scale` and `shader_scale`.
public enum PictureScale: Sendable, Equatable {
    /// Follows the picture's cost in a window (`DynamicScale`); every pixel in a render.
    case automatic
    /// This fraction, always.
    case fixed(Double)
}
