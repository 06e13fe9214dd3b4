import Foundation
import Testing

/// The package `make test` builds (as `make deb` does), installed on this machine as a user would:
/// Scripts/check-deb.sh runs lintian, `apt-get install ./decibar_*.deb`, the installed binary with
/// an empty environment, ldd, the Depends of every library opened on first use, and `apt-get purge`.
/// It needs root (CI runs as root) or sudo without a password, and says so otherwise.
@Suite("The Debian package")
struct DebianPackageTests {
    @Test("installs with apt-get, runs bare, links nothing of the toolchain, has no lintian error, and purges to nothing")
    func installAndPurge() throws {
        let folder = TestRig.packageRoot + "/.build/deb"
        let packages = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasPrefix("decibar_") && $0.hasSuffix(".deb") } ?? []
        try #require(packages.count == 1, "expected one package in \(folder) (make test and make deb build it), found \(packages)")
        let result = try TestRig.run(TestRig.packageRoot + "/Scripts/check-deb.sh", [folder + "/" + packages[0]])
        let output = String(decoding: result.output, as: UTF8.self)
        #expect(result.status == 0, "\(result.error)\n\(output)")
        for check in ["lintian reports no error", "apt-get install", "--version: ", "none from the Swift toolchain", "Depends names the package",
                      "apt-get purge removes all"] {
            #expect(output.contains("ok: " + check) || output.contains(check), "missing: \(check)\n\(output)")
        }
    }
}
