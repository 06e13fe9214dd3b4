/// The presets of projectm-data shown by default: those that drew (not black, not a still) at
/// 54 frames a second or more at 1280x720 on Mesa's software renderer, on two cores. Written by
/// Scripts/measure-presets.py (300 of 4189 presets measured); names only.
enum DefaultPresets {
    static let names: [String] = [
        "Illusion & Boz - Lord Of Stars 1",
        "Rovastar & Idiot24-7 - Mixed Emotions (Harlequin's Shame Mix)",
        "Unchained - Spinal Mixdown 2",
    ]
}
