import Foundation
import Testing

/// `make soak`'s short run: two minutes of the daemon with its window, a subscriber, a looped
/// playlist (files, an HTTP stream, a video), output switches and a sound-server restart, held to
/// the same bounds as the 30-minute run (Scripts/soak.sh: memory and fds flat over the second half,
/// no subscriber line lost outside the restart, every switch and restart followed).
@Suite("Soak (2 minutes)")
struct SoakTests {
    @Test("two minutes of use stay within the soak's bounds")
    func shortSoak() throws {
        let out = try TestRig.temporaryDirectory() + "/soak"
        let run = try TestRig.run(TestRig.packageRoot + "/Scripts/soak.sh", [TestRig.decibar],
                                  environment: ["SOAK_MINUTES": "2", "SOAK_OUT": out])
        let summary = (try? String(contentsOfFile: out + "/summary.txt", encoding: .utf8)) ?? ""
        #expect(run.status == 0, "soak failed:\n\(summary)\n\(run.error.suffix(2000))")
        #expect(FileManager.default.fileExists(atPath: out + "/soak.csv") && FileManager.default.fileExists(atPath: out + "/soak.png"))
        // A sample every 10 s over 2 minutes.
        let rows = (try? String(contentsOfFile: out + "/soak.csv", encoding: .utf8))?.split(whereSeparator: \.isNewline).count ?? 0
        #expect(rows >= 12, "\(rows) lines in soak.csv")
    }
}
