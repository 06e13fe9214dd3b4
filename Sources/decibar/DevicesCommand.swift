import ArgumentParser
import DecibarApp

extension Decibar {
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sound server's outputs (sinks) and inputs (sources).",
            discussion: CommandHelp.devices)

        @Flag(name: .long, help: "Print JSON instead of a table.")
        var json = false

        func run() throws {
            try DeviceListing.run(json: json)
        }
    }
}
