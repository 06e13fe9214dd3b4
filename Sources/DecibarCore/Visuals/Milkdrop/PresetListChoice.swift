/// Which presets Milkdrop's playlist holds (`display.preset_list`): the usual list (the
/// `preset_dirs`, or the installed presets that draw right), or only the favourites marked with
/// `*` in the window.
public enum PresetListChoice: String, CaseIterable, Sendable {
    case playlist, favourites
}
