/// How one Milkdrop preset gives way to the next (`--transition`): a hard cut, or both presets
/// drawn for a few beats and blended through one of the shaders in `Shaders/transitions/`, named
/// as the style is.
public enum PresetTransitionStyle: String, Sendable, CaseIterable {
    /// A plain cross-fade.
    case blend
    /// The next preset shows through a circle that grows from a point.
    case circle
    /// The next preset shows where a moving plasma field crosses a rising threshold.
    case plasma
    /// A soft edge sweeps across the picture at an angle.
    case sweep
    /// Both pictures swirl, most at the middle, as one fades into the other.
    case warp
    /// The picture rushes outward with a radial blur and the next comes in from its middle.
    case zoom
    /// The next preset replaces the last on one frame.
    case cut
    /// One of the blended styles, chosen for each change from the seed.
    case random

    /// The styles drawn by a shader (all but `cut` and `random`).
    public static var blended: [PresetTransitionStyle] { allCases.filter { $0 != .cut && $0 != .random } }

    /// The style of change number `index` (from 0) made with `seed`: itself, or for `random` one
    /// of `blended`, the same for the same seed and index on every machine.
    public func resolved(seed: UInt64, index: Int) -> PresetTransitionStyle {
        guard self == .random else { return self }
        var generator = SeededRandom(seed: seed ^ UInt64(truncatingIfNeeded: index) &* 0xD1B5_4A32_D192_ED03)
        let styles = Self.blended
        return styles[Int(generator.next() % UInt64(styles.count))]
    }
}
