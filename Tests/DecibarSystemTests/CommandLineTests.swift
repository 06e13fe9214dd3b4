import Foundation
import Testing

@Suite("Command line")
struct CommandLineTests {
    @Test("bad values exit with status 2 and one line", arguments: [
        ["live", "--bars", "0"], ["live", "--bars", "many"], ["live", "--size", "12x"], ["live", "--exit-after", "0"],
        ["levels", "--rate", "0"], ["levels", "--duration", "-3"], ["levels", "--file", "a.wav", "--source", "x"],
        ["levels", "--bogus"], ["live", "--screenshot", "/no/such/folder/x.png"], ["frobnicate"],
    ])
    func badValues(arguments: [String]) throws {
        let result = try TestRig.run(TestRig.decibar, arguments)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(result.error.hasPrefix("decibar: "))
        #expect(result.error.split(separator: "\n").count == 1, "\(result.error)")
    }

    @Test("every command explains every option in --help", arguments: [
        ("live", ["--source", "--bars", "--size", "--fullscreen", "--exit-after", "--screenshot"]),
        ("levels", ["--source", "--file", "--rate", "--duration"]),
        ("devices", ["--json"]),
    ])
    func help(command: String, options: [String]) throws {
        let result = try TestRig.run(TestRig.decibar, [command, "--help"])
        #expect(result.status == 0)
        let text = String(decoding: result.output, as: UTF8.self)
        for option in options { #expect(text.contains(option), "\(command) --help lacks \(option)") }
        #expect(!text.contains("frame-log"))
    }
}
