import ArgumentParser
import DecibarApp
import DecibarCore

extension PixelSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
    public var defaultValueDescription: String { text }
}

extension VisualMode: ExpressibleByArgument {}
extension BackgroundStyle: ExpressibleByArgument {}
extension DesktopLayer: ExpressibleByArgument {}
extension LayerAnchor: ExpressibleByArgument {}
extension LoopMode: ExpressibleByArgument {}
extension VideoLayout: ExpressibleByArgument {}
extension LevelsMode: ExpressibleByArgument {}
extension SampleFormat: ExpressibleByArgument {}
extension BarOrientation: ExpressibleByArgument {}
extension MeterBallistics: ExpressibleByArgument {}
extension MeterScale: ExpressibleByArgument {}

extension Setting {
    /// The option's name, from the settings table: `--bar-width` for `display.bar_width`.
    var option: NameSpecification { .customLong(String(key.optionName.dropFirst(2))) }

    /// The option's help: the table's text and value name.
    var help: ArgumentHelp { ArgumentHelp(key.help, valueName: key.valueName) }
}

extension Configuration {
    /// Adds an option's value, checked by its row; a bad one is a usage error (status 2).
    mutating func put<Value>(_ setting: Setting<Value>, _ value: JSONValue?) throws {
        do { try set(option: setting.key, to: value) } catch { throw ValidationError(error.message) }
    }
}

/// Options shared by the commands that tap a live source: where, and which apps.
struct SourceOption: ParsableArguments {
    @Option(name: ConfigSchema.Audio.source.option, help: ConfigSchema.Audio.source.help) var source: String?
    @Option(name: ConfigSchema.Audio.apps.option, help: ConfigSchema.Audio.apps.help) var app: [String] = []
    @Option(name: ConfigSchema.Audio.excludeApps.option, help: ConfigSchema.Audio.excludeApps.help) var excludeApp: [String] = []

    var apps: AppSelection { AppSelection(apps: app, excludedApps: excludeApp) }

    func validate() throws {
        if let source, source.isEmpty { throw ValidationError("--source needs a name (see 'decibar devices')") }
        if app.contains(where: \.isEmpty) || excludeApp.contains(where: \.isEmpty) {
            throw ValidationError("--app and --exclude-app need an app's name (see 'decibar devices')")
        }
    }

    /// The options given, as a layer over the config file.
    func layer() throws -> Configuration {
        var layer = Configuration()
        try layer.put(ConfigSchema.Audio.source, source.map(JSONValue.string))
        try layer.put(ConfigSchema.Audio.apps, app.isEmpty ? nil : .array(app.map(JSONValue.string)))
        try layer.put(ConfigSchema.Audio.excludeApps, excludeApp.isEmpty ? nil : .array(excludeApp.map(JSONValue.string)))
        return layer
    }
}

/// Where live, levels and the daemon also send the analysis (`--send`, repeatable).
struct OutputsOption: ParsableArguments {
    @Option(name: ConfigSchema.Outputs.send.option, help: ConfigSchema.Outputs.send.help) var send: [String] = []

    /// The options given, as a layer over the config file; a bad URL is a usage error.
    func layer() throws -> Configuration {
        var layer = Configuration()
        try layer.put(ConfigSchema.Outputs.send, send.isEmpty ? nil : .array(send.map(JSONValue.string)))
        return layer
    }

    func validate() throws { _ = try layer() }
}

/// An output path checked as the command line is read: a bad one is a usage error (status 2).
func checkOutput(_ path: String, option: String, kind: OutputPath.Kind, inputs: [String] = []) throws {
    do {
        try OutputPath.check(path, option: option, kind: kind, inputs: inputs)
    } catch {
        throw ValidationError(error.description)
    }
}

/// What `levels` prints: its JSON lines, or lines for a status bar.
enum LevelsFormat: String, CaseIterable, ExpressibleByArgument {
    case json
    case waybar
    case ascii
}
