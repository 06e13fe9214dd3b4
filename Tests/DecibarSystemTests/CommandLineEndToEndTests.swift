import Foundation
import Testing

/// The command line through the real binary (how values are checked is in DecibarAppTests).
@Suite("Command line end to end")
struct CommandLineEndToEndTests {
    @Test("the program itself says a bad value in one line, with status 2")
    func badValueEndToEnd() throws {
        let result = try TestRig.run(TestRig.decibar, ["live", "--bars", "0"])
        #expect(result.status == 2 && result.error == "decibar: --bars must be between 1 and 1024\n", "\(result.error)")
    }

    @Test("an option that does not apply to the command: one line that says why, status 2", arguments: [
        (["render", "x.wav", "-o", "out.mp4", "--layer", "overlay"], "decibar: --layer does not apply to render (there is no window)\n"),
        (["render", "x.wav", "-o", "out.mp4", "--display-fps", "144"], "decibar: --display-fps does not apply to render (there is no window)\n"),
    ])
    func optionThatDoesNotApply(arguments: [String], error: String) throws {
        let result = try TestRig.run(TestRig.decibar, arguments)
        #expect(result.status == 2 && result.error == error, "\(result.error)")
    }
}
