/// When the on-screen controller shows (`display.osc`, as mpv names it): `auto` while the pointer
/// moves over an ordinary window, `always` in such a window, `never`. A desktop layer, a
/// recording and a render never show it.
public enum ControllerVisibility: String, CaseIterable, Sendable {
    case auto, never, always
}
