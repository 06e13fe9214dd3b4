import ArgumentParser
import DecibarApp
import DecibarCore

/// `--config PATH`: the config file the command reads (its options override it).
struct ConfigFileOption: ParsableArguments {
    /// The option's name; commands that read no file know it only to refuse it (`SettingOptions`).
    static let name = "config"

    @Option(name: .customLong(name), help: ArgumentHelp(
        "Read settings from this TOML file instead of $XDG_CONFIG_HOME/decibar/config.toml (see 'decibar config init'); options given here override it.",
        valueName: "path"))
    var config: String?

    var path: String { config ?? ConfigFile.defaultPath() }

    /// The file's settings (the defaults when the default file does not exist). A broken file is
    /// an error naming its line and column: running with half of it would surprise more.
    func load() throws -> Configuration {
        do {
            return try ConfigFile.load(path, mustExist: config != nil)
        } catch {
            throw CommandFailure(message: error.summary, status: 2)
        }
    }
}
