/// The scope's settings, in [display]: declared in the mode's folder, registered by its description.
public struct ScopeSettings: SettingsGroup {
    public static let rows = ScopeSettings()

    public init() {}

    public let autoGain: Setting<Bool> = .boolean(ConfigSection.display, "scope_auto_gain",
        "Scope: scale the goniometer to the loudest recent sample (off: full scale reaches its edge, so quiet music draws small, as on a mastering meter).")
}
