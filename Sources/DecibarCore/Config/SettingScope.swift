/// The commands a setting means something to, and why it means nothing to the others (said when
/// one of them is given the option: `--layer does not apply to render (there is no window)`).
public struct SettingScope: Sendable {
    public let commands: Set<SettingCommand>
    /// Why not, for the commands outside, unless `exceptions` says otherwise for one.
    private let elsewhere: String
    private let exceptions: [SettingCommand: String]

    public init(_ commands: Set<SettingCommand>, elsewhere: String, _ exceptions: [SettingCommand: String] = [:]) {
        self.commands = commands
        self.elsewhere = elsewhere
        self.exceptions = exceptions
    }

    /// Why the setting means nothing to `command`; nil when it does.
    public func reason(for command: SettingCommand) -> String? {
        commands.contains(command) ? nil : exceptions[command] ?? elsewhere
    }
}

extension SettingScope {
    /// How the bars look: every command that draws them (render too, offline).
    static let look = SettingScope([.live, .play, .render, .daemon, .term], elsewhere: "there is no window",
                                   [.spectrogram: "it draws only the spectrogram"])
    /// The picture's size: render has its own option (a size for each -o).
    static let pictureSize = SettingScope([.live, .play, .daemon, .spectrogram], elsewhere: "there is no window",
                                          [.render: "its own --size takes a size for each -o", .term: "it takes the terminal's size"])
    /// What a picture of a file's spectrogram takes too: its size, colors and theme.
    static let picture = SettingScope([.live, .play, .render, .daemon, .spectrogram, .term], elsewhere: "there is no window")
    /// The window itself: its place on the desktop, its frame and its pace.
    public static let window = SettingScope([.live, .play, .daemon], elsewhere: "there is no window",
                                            [.spectrogram: "it draws only the spectrogram", .term: "it draws in the terminal"])
    /// How often a picture is drawn: a window's and the terminal's.
    static let pace = SettingScope([.live, .play, .daemon, .term], elsewhere: "there is no window",
                                   [.spectrogram: "it draws only the spectrogram"])
    /// The terminal's own.
    static let terminal = SettingScope([.term], elsewhere: "only decibar term draws in a terminal")
    /// What a live tap listens to.
    static let liveSource = SettingScope([.live, .levels, .daemon, .term], elsewhere: "it reads files, not a live source")
    /// When a window on a live source shows what it hears.
    static let liveWindow = SettingScope([.live, .daemon], elsewhere: "only a window on a live source is delayed")
    /// How the scrubber (and a video's picture) look.
    static let scrubber = SettingScope([.play, .render, .daemon, .term], elsewhere: "it plays no files")
    /// What the player does, and the scrubber under the pointer.
    static let player = SettingScope([.play, .daemon, .term], elsewhere: "it plays no files", [.render: "it plays nothing"])
    static let scrubbing = SettingScope([.play, .daemon, .term], elsewhere: "it plays no files", [.render: "there is no window"])
    /// How the player fetches addresses (the other commands that read one use the defaults).
    static let streams = SettingScope([.play, .daemon, .term], elsewhere: "it reads addresses with the default stream settings",
                                      [.live: "it plays no files"])
    static let service = SettingScope([.daemon], elsewhere: "only the daemon takes it")
    static let outputs = SettingScope([.live, .levels, .daemon], elsewhere: "only live, levels and the daemon send")
}
