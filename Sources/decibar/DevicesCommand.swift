import ArgumentParser
import DecibarApp

extension Decibar {
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sound server's outputs (sinks) and inputs (sources).",
            discussion: """
                Marks the default sink and its monitor: the source 'decibar live' listens to when no \
                --source is given. Any name listed here can be passed to --source.
                """)

        @Flag(name: .long, help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            try DeviceListing.run(json: json)
        }
    }
}
