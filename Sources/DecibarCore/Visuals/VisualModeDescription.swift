/// What a mode says of itself, from which its help, the keys listing, docs/modes.md's list and
/// the web page's note are made: its name, a few words on what it shows, the keys it adds, and
/// which layouts and outputs can draw it.
public struct VisualModeDescription: Sendable {
    /// What the web page (`--send http://`) draws while the window shows this mode.
    public enum PagePicture: String, Sendable {
        case bars, spectrum, meter
    }

    public var name: String
    /// How a sentence names it: "The spectrogram", a name of its own.
    public var title: String
    /// A few words, as `--mode`'s help lists it: "symmetric level bars".
    public var summary: String
    /// The keys it adds while it shows, (chord, command), over the window's and the player's.
    public var keys: [(String, String)]
    /// Whether `--layout radial` draws it around a circle.
    public var drawsRadial: Bool
    /// What the page draws for it; `pageDrawsItself` says whether that is the mode itself or
    /// the bars in its place.
    public var page: PagePicture
    public var pageDrawsItself: Bool
    /// Its own settings' keys (its `SettingsGroup`, in its folder), which the schema collects.
    public var settings: [ConfigKey]
    /// Why a render draws it into one output at a time, where it must (its library's limits).
    public var oneOutputAtATime: String?

    public init(name: String, title: String? = nil, summary: String, keys: [(String, String)] = [], drawsRadial: Bool = false,
                page: PagePicture = .bars, pageDrawsItself: Bool = false, settings: (any SettingsGroup)? = nil,
                oneOutputAtATime: String? = nil) {
        self.settings = settings?.keys ?? []
        self.oneOutputAtATime = oneOutputAtATime
        self.name = name
        self.title = title ?? "The " + name
        self.summary = summary
        self.keys = keys
        self.drawsRadial = drawsRadial
        self.page = page
        self.pageDrawsItself = pageDrawsItself
    }

    /// The page's note while this mode shows, when the page draws something else.
    public var pageNote: String? {
        pageDrawsItself ? nil : "\(title) shows only in the window: the page draws the \(page.rawValue)"
    }
}
