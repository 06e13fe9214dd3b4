/// The commands whose command line takes settings. Each row of the settings table says which of
/// them it means something to (`ConfigKey.scope`): only those list its option in `--help` and
/// take it; the others refuse it, saying why.
public enum SettingCommand: String, CaseIterable, Sendable {
    case live, play, render, levels, daemon, spectrogram, peaks, scale, term

    /// Whether it opens a window: what keys do in one is said only where there is one.
    public var hasWindow: Bool { SettingScope.window.commands.contains(self) }

    /// Whether it reads the config file (and takes `--config`): the commands people leave
    /// running. The others make the same output from the same command line on every machine.
    public var readsConfigFile: Bool {
        switch self {
        case .live, .play, .daemon, .term: true
        case .render, .levels, .spectrogram, .peaks, .scale: false
        }
    }

    /// The one line `--config` is refused with where no file is read; nil where one is.
    public var configFileRefusal: String? {
        readsConfigFile ? nil : "--config does not apply to \(rawValue) (it reads no config file: the same command line makes the same output on every machine)"
    }
}
