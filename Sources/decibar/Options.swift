import ArgumentParser
import DecibarApp
import DecibarCore

extension WindowSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
    public var defaultValueDescription: String { text }
}

extension VisualMode: ExpressibleByArgument {}
extension BackgroundStyle: ExpressibleByArgument {}
extension LoopMode: ExpressibleByArgument {}
extension VideoLayout: ExpressibleByArgument {}
extension LevelsMode: ExpressibleByArgument {}
extension SampleFormat: ExpressibleByArgument {}
extension BarOrientation: ExpressibleByArgument {}
extension MeterBallistics: ExpressibleByArgument {}
extension MeterScale: ExpressibleByArgument {}

/// Options shared by the commands that tap a live source.
struct SourceOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Source to listen to, by name (see 'decibar devices'); a sink's name means its monitor.",
        discussion: "Without it, Decibar follows the monitor of the default output and moves with it.",
        valueName: "name"))
    var source: String?
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
