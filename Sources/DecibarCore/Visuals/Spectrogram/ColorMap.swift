/// The colors of a spectrogram from its floor (0) to 0 dBFS (1): matplotlib's perceptual maps
/// (uniform in lightness, readable in grey; their data are CC0), or the theme's own gradient.
public enum ColorMap: String, CaseIterable, Sendable {
    case magma
    case viridis
    case inferno
    case plasma
    /// The theme: its background, then its center color, then its tip color.
    case theme

    /// The map at `count` evenly spaced points, 0...1, for a lookup texture.
    public func table(count: Int, theme: BarTheme) -> [Color] {
        let stops: [Color]
        switch self {
        case .magma: stops = Self.magmaStops.map { Color(hex: $0) }
        case .viridis: stops = Self.viridisStops.map { Color(hex: $0) }
        case .inferno: stops = Self.infernoStops.map { Color(hex: $0) }
        case .plasma: stops = Self.plasmaStops.map { Color(hex: $0) }
        case .theme: stops = [theme.background, theme.center, theme.tip]
        }
        return (0 ..< count).map { index in
            let position = Float(index) / Float(max(1, count - 1)) * Float(stops.count - 1)
            let lower = min(Int(position), stops.count - 2)
            let fraction = position - Float(lower)
            let a = stops[lower], b = stops[lower + 1]
            return Color(red: a.red + (b.red - a.red) * fraction, green: a.green + (b.green - a.green) * fraction,
                         blue: a.blue + (b.blue - a.blue) * fraction, alpha: 1)
        }
    }

    // 32 evenly spaced samples of each map.
    static let magmaStops: [UInt32] = [
        0x000004, 0x030312, 0x0A0822, 0x130D34, 0x1E1149, 0x2A115C, 0x38106C, 0x451077, 0x54137D, 0x601880, 0x6D1D81,
        0x792282, 0x882781, 0x942C80, 0xA1307E, 0xAE347B, 0xBD3977, 0xCA3E72, 0xD6456C, 0xE24D66, 0xEC5860, 0xF3655C,
        0xF8745C, 0xFB835F, 0xFD9467, 0xFEA36F, 0xFEB27A, 0xFEC185, 0xFED194, 0xFDE0A1, 0xFCEEB0, 0xFCFDBF,
    ]
    static let viridisStops: [UInt32] = [
        0x440154, 0x470D60, 0x48186A, 0x482374, 0x472E7C, 0x453882, 0x424186, 0x3E4A89, 0x3A548C, 0x365D8D, 0x32658E,
        0x2E6D8E, 0x2B758E, 0x287D8E, 0x25848E, 0x228C8D, 0x1F948C, 0x1E9C89, 0x20A386, 0x25AB82, 0x2EB37C, 0x3ABA76,
        0x48C16E, 0x58C765, 0x6CCD5A, 0x7FD34E, 0x93D741, 0xA8DB34, 0xC0DF25, 0xD5E21A, 0xEAE51A, 0xFDE725,
    ]
    static let infernoStops: [UInt32] = [
        0x000004, 0x040312, 0x0B0724, 0x150B37, 0x230C4C, 0x310A5C, 0x3E0966, 0x4C0C6B, 0x5A116E, 0x67166E, 0x741A6E,
        0x801F6C, 0x8F2469, 0x9B2964, 0xA82E5F, 0xB43359, 0xC13A50, 0xCC4248, 0xD74B3F, 0xE05536, 0xE9612B, 0xEF6E21,
        0xF57B17, 0xF8890C, 0xFB9906, 0xFCA80D, 0xFBB81D, 0xF9C72F, 0xF5D949, 0xF2E865, 0xF3F586, 0xFCFFA4,
    ]
    static let plasmaStops: [UInt32] = [
        0x0D0887, 0x220690, 0x310597, 0x3F049C, 0x4E02A2, 0x5B01A5, 0x6700A8, 0x7401A8, 0x8104A7, 0x8D0BA5, 0x9814A0,
        0xA21D9A, 0xAD2793, 0xB6308B, 0xBF3984, 0xC7427C, 0xCF4C74, 0xD6556D, 0xDD5E66, 0xE3685F, 0xE97257, 0xEF7C51,
        0xF3874A, 0xF79143, 0xFA9E3B, 0xFCA934, 0xFDB52E, 0xFDC229, 0xFCD025, 0xF9DD25, 0xF5EB27, 0xF0F921,
    ]
}
