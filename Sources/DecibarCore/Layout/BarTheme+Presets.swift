/// The built-in looks: a background and a gradient from the bars' base to their tips.
extension BarTheme {
    public static let presets: [(name: String, theme: BarTheme)] = [
        ("neon", .default),
        ("fire", BarTheme(background: Color(hex: 0x120805), center: Color(hex: 0xB31B00), tip: Color(hex: 0xFFD23F))),
        ("ocean", BarTheme(background: Color(hex: 0x04121A), center: Color(hex: 0x0B4F6C), tip: Color(hex: 0x5CF2E6))),
        ("forest", BarTheme(background: Color(hex: 0x07110A), center: Color(hex: 0x1E6B34), tip: Color(hex: 0xC6F36B))),
        ("mono", BarTheme(background: Color(hex: 0x0E0E0E), center: Color(hex: 0x5A5A5A), tip: Color(hex: 0xF2F2F2))),
        ("sunset", BarTheme(background: Color(hex: 0x140A1E), center: Color(hex: 0x6A1B9A), tip: Color(hex: 0xFF8A3D))),
    ]

    public static var presetNames: [String] { presets.map(\.name) }

    public static func preset(named name: String) -> BarTheme? {
        presets.first { $0.name == name.lowercased() }?.theme
    }
}
