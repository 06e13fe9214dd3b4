/// The scrubber's colors: the part already played, the rest, what is not analyzed yet, the
/// playhead and the time labels.
public struct ScrubberTheme: Sendable, Equatable {
    public var played: Color
    public var unplayed: Color
    public var pending: Color
    public var playhead: Color
    public var label: Color
    /// The A-B loop's band and edges.
    public var loop: Color

    public init(played: Color, unplayed: Color, pending: Color, playhead: Color, label: Color,
                loop: Color = Color(hex: 0x3FD0C8)) {
        self.played = played
        self.unplayed = unplayed
        self.pending = pending
        self.playhead = playhead
        self.label = label
        self.loop = loop
    }

    public static let `default` = ScrubberTheme(
        played: Color(hex: 0xFF4FB8), unplayed: Color(hex: 0x5A6690), pending: Color(hex: 0x22283A),
        playhead: Color(hex: 0xFFFFFF, alpha: 0.9), label: Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.95))
}
