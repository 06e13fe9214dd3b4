import ArgumentParser

/// `WxH` in pixels, e.g. `1280x720`.
struct WindowSize: ExpressibleByArgument, Sendable, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (16...16384).contains(width), (16...16384).contains(height) else { return nil }
        self.init(width: width, height: height)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}

/// Options shared by the commands that tap a live source.
struct SourceOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Source to listen to, by name (see 'decibar devices'); a sink's name means its monitor.",
        discussion: "Without it, Decibar follows the monitor of the default output and moves with it.",
        valueName: "name"))
    var source: String?
}
