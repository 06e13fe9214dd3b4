/// The scrubber's colors: the part already played, the rest, what is not analyzed yet, the
/// playhead and the time labels.
public struct ScrubberTheme: Sendable, Equatable {
    public var played: Color
    public var unplayed: Color
    public var pending: Color
    public var playhead: Color
    public var label: Color

    public init(played: Color, unplayed: Color, pending: Color, playhead: Color, label: Color) {
        self.played = played
        self.unplayed = unplayed
        self.pending = pending
        self.playhead = playhead
        self.label = label
    }

    public static let `default` = ScrubberTheme(
        played: Color(hex: 0xFF4FB8), unplayed: Color(hex: 0x5A6690), pending: Color(hex: 0x22283A),
        playhead: Color(hex: 0xFFFFFF, alpha: 0.9), label: Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.95))
}
