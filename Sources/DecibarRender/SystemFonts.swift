import CFontconfig
import DecibarCore

/// fontconfig, opened on first use (see CLoader.h).
let fontconfigLibrary = LoadedLibrary<DecibarFontconfig> { decibar_fontconfig_load($0, $1) }

/// The fonts the system has, as fontconfig (the desktop's own font matching) chooses them: a face
/// for letters the default font lacks (Chinese, Japanese, Korean and others), as a desktop would
/// draw them.
enum SystemFonts {
    /// A font file and the face's index in it (collections such as Noto CJK hold several).
    struct Face: Hashable {
        let path: String
        let index: Int
    }

    /// A sans-serif face with every one of `scalars`, regular or bold; nil when fontconfig is not
    /// installed or no font has them all.
    static func face(covering scalars: [Unicode.Scalar], bold: Bool) -> Face? {
        guard fontconfigLibrary.failure == nil, let fc = fontconfigLibrary.table, fc.FcInit!() != 0,
              let pattern = fc.FcPatternCreate!(), let characters = fc.FcCharSetCreate!() else { return nil }
        defer {
            fc.FcPatternDestroy!(pattern)
            fc.FcCharSetDestroy!(characters)
        }
        for scalar in scalars { _ = fc.FcCharSetAddChar!(characters, scalar.value) }
        _ = fc.FcPatternAddString!(pattern, "family", "sans-serif")
        _ = fc.FcPatternAddInteger!(pattern, "weight", bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
        _ = fc.FcPatternAddCharSet!(pattern, "charset", characters)
        _ = fc.FcConfigSubstitute!(nil, pattern, FcMatchPattern)
        fc.FcDefaultSubstitute!(pattern)
        var result = FcResultNoMatch
        guard let match = fc.FcFontMatch!(nil, pattern, &result) else { return nil }
        defer { fc.FcPatternDestroy!(match) }
        var file: UnsafeMutablePointer<FcChar8>?
        var found: OpaquePointer?
        guard fc.FcPatternGetString!(match, "file", 0, &file) == FcResultMatch, let file,
              fc.FcPatternGetCharSet!(match, "charset", 0, &found) == FcResultMatch, let found else { return nil }
        // The best match may still lack some (fontconfig always answers): then none has them all.
        guard scalars.allSatisfy({ fc.FcCharSetHasChar!(found, $0.value) != 0 }) else { return nil }
        var index: Int32 = 0
        _ = fc.FcPatternGetInteger!(match, "index", 0, &index)
        return Face(path: String(cString: file), index: Int(index))
    }
}
