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
}
