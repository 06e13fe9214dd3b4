/// What a player publishes to the desktop (MPRIS 2's player properties), made by the player on
/// its own thread and read by the bus on another. Comparing two states names the properties
/// whose change must be signalled.
public struct MediaPlayerState: Sendable, Equatable {
    public var status: PlaybackStatus = .idle
    public var loop: LoopMode = .none
    public var shuffle = false
    /// Percent on the sound server's scale (MPRIS's Volume is this over 100).
    public var volume: Double = PlayerVolume.defaultPercent
    public var rate: Double = 1
    public var minimumRate: Double = RateAndPitch.rates.lowerBound
    public var maximumRate: Double = RateAndPitch.rates.upperBound
    public var track: MediaTrack?
    /// Every track of the list (TrackList): its id, address and name; the open one in full is `track`.
    public var trackList: [MediaTrack] = []
    public var canGoNext = false
    public var canGoPrevious = false
    public var canSeek = false

    public init() {}

    public var canPlay: Bool { track != nil }
    public var canPause: Bool { track != nil }

    /// The player properties that signal a change (all but Position and CanControl) whose values
    /// differ between `self` and `other`, in the order of the interface.
    public func changedProperties(since other: MediaPlayerState) -> [String] {
        var names: [String] = []
        if status.mprisName != other.status.mprisName { names.append("PlaybackStatus") }
        if loop != other.loop { names.append("LoopStatus") }
        if rate != other.rate { names.append("Rate") }
        if shuffle != other.shuffle { names.append("Shuffle") }
        if track != other.track { names.append("Metadata") }
        if volume != other.volume { names.append("Volume") }
        if minimumRate != other.minimumRate { names.append("MinimumRate") }
        if maximumRate != other.maximumRate { names.append("MaximumRate") }
        if canGoNext != other.canGoNext { names.append("CanGoNext") }
        if canGoPrevious != other.canGoPrevious { names.append("CanGoPrevious") }
        if canPlay != other.canPlay { names.append("CanPlay") }
        if canPause != other.canPause { names.append("CanPause") }
        if canSeek != other.canSeek { names.append("CanSeek") }
        return names
    }
}
