import DecibarRender
import DecibarCore

/// One way of showing the music (a `--mode`): what it says of itself, its state, moved on by each
/// frame, and its drawing. A new mode is a folder with a type conforming to this and a line in
/// `VisualCatalog` (docs/ARCHITECTURE.md, "Adding a mode").
protocol Visual: AnyObject, SendableMetatype {
    /// Its name, a few words on it, the keys it adds, what draws it besides the window.
    static var mode: VisualModeDescription { get }
    /// Fails for a picture whose library or files are not installed (said in the user's terms).
    init(tools: VisualTools) throws(RenderError)
    /// What the feed must measure for it.
    var needs: VisualNeeds { get }
    func update(_ frame: VisualFrame)
    /// Draws into the top `canvas.height` pixels of the window (already cleared).
    func draw(_ canvas: VisualCanvas)
    /// True when nothing on screen would change; the window then skips drawing.
    var isAtRest: Bool { get }
    /// 0...1, for the latency benchmarks' frame log.
    var meanValue: Float { get }
    /// Whether it wants every buffer as it is released (`released`), not only the feed's newest samples.
    var wantsReleases: Bool { get }
    /// A buffer released from the feed this frame, in order, before `update` (when `wantsReleases`).
    func released(_ buffer: AudioBuffer)
    /// Carries out a command only some pictures take (`preset`, where a mode has presets): false when this one
    /// does not take it; a failure says why it could not.
    func perform(_ command: ControlCommand) throws(ControlFailure) -> Bool
    /// What it shows by name, where it has one (a preset), for the status.
    var shownName: String? { get }
    /// What the window's title adds while it shows (" — a preset (locked)"); "" for nothing.
    var titleSuffix: String { get }
    /// A setting as the picture uses it now, where that moved on from what was set (the preset
    /// shown); nil for the setting's own value.
    func currentValue(of key: ConfigKey) -> JSONValue?
    /// What it showed by name and when, in a render (for its account of the video); empty elsewhere.
    var changes: [PictureChange] { get }
    /// What went wrong since last asked and is worth a line over the picture (a preset that
    /// could not be shown); nil, without allocating, when nothing did.
    func takeNotice() -> String?
}

extension Visual {
    var wantsReleases: Bool { false }
    func released(_ buffer: AudioBuffer) {}
    func perform(_ command: ControlCommand) throws(ControlFailure) -> Bool { false }
    var titleSuffix: String { "" }
    var shownName: String? { nil }
    func currentValue(of key: ConfigKey) -> JSONValue? { nil }
    var changes: [PictureChange] { [] }
    func takeNotice() -> String? { nil }
}

/// What the feed measures only once a picture needs it.
struct VisualNeeds: OptionSet {
    let rawValue: Int
    /// Loudness (momentary, short-term, integrated, range, true peak): measured from the first
    /// frame that shows it, and then for good, so switching pictures loses none of it.
    static let loudness = VisualNeeds(rawValue: 1)
    /// Beats, found whether or not the beat accent is on.
    static let beats = VisualNeeds(rawValue: 2)
}

/// Where a frame is drawn: the top `height` pixels of a `width`×`windowHeight` window, at `time`
/// seconds since the picture started, with the beat heard by then.
struct VisualCanvas {
    var width: Int
    var height: Int
    var windowHeight: Int
    var time: Double
    var beat: BeatPulse
    var beatLevel: Float
    var beatPhase: Float
    /// Seconds between the display's refreshes (nil in a render): see `Visualizer.displayPeriod`.
    var displayPeriod: Double?
}
