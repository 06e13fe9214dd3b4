/// The presets of projectm-data shown by default. Written by Scripts/measure-presets.py.
enum DefaultPresets {
    static let names: [String] = []
}
