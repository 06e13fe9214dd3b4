/// Milkdrop's settings, in [display] (its own rows: the mode's folder is where they are declared).
public struct MilkdropSettings: SettingsGroup {
    public static let rows = MilkdropSettings()

    public init() {}

    public let preset: Setting<String?> = .text(ConfigSection.display, "preset", valueName: "name|path",
        inWindow: "n and p show the next and previous preset, r a random one, l locks the one shown.",
        "Milkdrop: the preset to start with, by name (its file name without .milk, any case) or path (unset: the first of the playlist).")
    public let directories: Setting<[String]> = .names(ConfigSection.display, "preset_dirs", option: "preset-dir",
        "Milkdrop: folders of .milk presets making the playlist, in this order, each sorted by name (repeat --preset-dir for more). Empty: the presets of projectm-data that draw right, measured (all_presets: every one).")
    public let textureDirectories: Setting<[String]> = .names(ConfigSection.display, "texture_dirs", option: "texture-dir",
        "Milkdrop: more folders (with their subfolders) where the textures presets name are looked for, after projectm-data's (repeat --texture-dir for more). A preset naming a texture found nowhere draws without it, and says so once.")
    public let allPresets: Setting<Bool> = .boolean(ConfigSection.display, "all_presets",
        "Milkdrop: with no preset_dirs, every installed preset instead of the list of those that draw right.")
    public let list: Setting<PresetListChoice> = .choice(ConfigSection.display, "preset_list", default: .playlist,
        inWindow: "* marks the preset shown as a favourite (or no longer one); / or L lists every preset to search.",
        "Milkdrop: playlist (preset_dirs, or the installed presets that draw right) or favourites (only the presets marked with * in a window, kept in $XDG_STATE_HOME/decibar/presets.json).")
    public let shuffle: Setting<Bool> = .boolean(ConfigSection.display, "preset_shuffle",
        "Milkdrop: play the playlist in a random order (from seed).")
    public let duration: Setting<Double> = .number(ConfigSection.display, "preset_duration", 1...3600, default: 20, unit: "seconds",
        "Milkdrop: how long a preset shows before the next; the change then waits for the next downbeat (and starts its transition there), or comes on time in music without a beat.")
    public let transition: Setting<PresetTransitionStyle> = .choice(ConfigSection.display, "transition", default: .random,
        "Milkdrop: how a preset gives way to the next: blend, circle, plasma, sweep, warp or zoom draw both presets for transition_beats beats from the change's beat and blend them through that shader; random picks one of those for each change (from seed); cut changes on one frame.")
    public let transitionBeats: Setting<Int> = .integer(ConfigSection.display, "transition_beats", 1...32, default: 4,
        "Milkdrop: how many beats a blended transition lasts (of the tempo heard as it starts; half-second beats in music without one). The next preset's own time counts from its start.")
    public let scale: Setting<PictureScale> = .scale(ConfigSection.display, "milkdrop_scale", 0.1...1,
        "Milkdrop: the fraction of the window's width and height presets are drawn at, then scaled up and sharpened (their shaders cost per pixel). auto: in a window it follows the preset's cost, between 1 and 0.25, to keep the display's rate (starting from 0.5 on a software renderer); in render every pixel is drawn.")
    public let seed: Setting<Int?> = .integer(ConfigSection.display, "seed", 0...Int(UInt32.max),
        "Milkdrop: where the random numbers of the presets and the shuffle start; the same seed gives the same pictures (unset: render uses 1, a window a new one each time).")
}
