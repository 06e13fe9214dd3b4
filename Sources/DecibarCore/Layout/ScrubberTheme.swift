/// The scrubber's colours: the part already played, the rest, what is not analysed yet, the
/// playhead and the time labels.
public struct ScrubberTheme: Sendable, Equatable {
    public var played: Colour
    public var unplayed: Colour
    public var pending: Colour
    public var playhead: Colour
    public var label: Colour

    public init(played: Colour, unplayed: Colour, pending: Colour, playhead: Colour, label: Colour) {
        self.played = played
        self.unplayed = unplayed
        self.pending = pending
        self.playhead = playhead
        self.label = label
    }

    public static let `default` = ScrubberTheme(
        played: Colour(hex: 0xFF4FB8), unplayed: Colour(hex: 0x5A6690), pending: Colour(hex: 0x22283A),
        playhead: Colour(hex: 0xFFFFFF, alpha: 0.9), label: Colour(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.95))
}
