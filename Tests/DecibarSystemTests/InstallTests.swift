import DecibarCore
import Foundation
import Testing

/// `make install-files` (what `make install` does after building the release binary) into a
/// DESTDIR, checked as a distribution would: every file where the desktop looks, each validated
/// by its own tool, the installed binary drawing with the installed shaders, and `make uninstall`
/// leaving nothing behind.
@Suite("make install and make uninstall", .enabled(if: TestRig.canRun(needing: .display), "needs an X display (make test has one)"))
struct InstallTests {
    func make(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let result = try TestRig.run("make", ["-C", TestRig.packageRoot, "--no-print-directory"] + arguments)
        return (result.status, String(decoding: result.output, as: UTF8.self), result.error)
    }

    func files(under folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []).filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }

    /// The long options a help text lists (`--caps/--no-caps` is two).
    static func options(inHelp text: String) -> Set<String> {
        var names = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ").prefix(while: { $0.hasPrefix("-") }) {
                for name in word.split(separator: "/") where name.hasPrefix("--") { names.insert(String(name.filter { $0 != "," })) }
            }
        }
        return names
    }

    /// The long options a generated man page lists: `.It Fl o , -output Ar out` is `--output`.
    static func options(inPage page: String) -> Set<String> {
        var names = Set<String>()
        for line in page.split(separator: "\n") where line.hasPrefix(".It Fl ") {
            let words = line.split(separator: " ").dropFirst(2).prefix { $0 != "Ar" }
            names.formUnion(words.filter { $0.hasPrefix("-") }.map { "-" + $0 })
        }
        return names
    }

    @Test("DESTDIR=/tmp/x PREFIX=/usr: the binary finds its shaders and draws; launcher, unit and man pages validate; uninstall leaves nothing")
    func installAndUninstall() throws {
        // The servers first: they must not start while make runs (see below).
        let server = try PrivatePulseServer()
        let screen = try PrivateDisplay()
        let destination = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let variables = ["DESTDIR=\(destination)", "PREFIX=/usr"]
        let installed = try make(["install-files", "BINARY=\(TestRig.decibar)"] + variables)
        #expect(installed.status == 0, "\(installed.error)")
        let usr = destination + "/usr"
        let tree = files(under: usr)
        for expected in ["bin/decibar", "share/decibar/Shaders/bars.frag", "share/decibar/Shaders/text.frag", "lib/systemd/user/decibar.service",
                         "share/applications/decibar.desktop", "share/man/man1/decibar.1", "share/man/man1/decibar.play.1",
                         "share/man/man1/decibar.daemon.1", "share/bash-completion/completions/decibar", "share/zsh/site-functions/_decibar",
                         "share/fish/vendor_completions.d/decibar.fish", "share/doc/decibar/examples/config.toml"] {
            #expect(tree.contains(expected), "\(expected) is not installed: \(tree)")
        }
        #expect(tree.contains { $0.hasPrefix("share/doc/decibar/examples/waybar/") } && tree.contains { $0.hasPrefix("share/doc/decibar/examples/polybar/") })

        // The launcher and the unit name the installed binary (without DESTDIR), and validate.
        let desktop = try String(contentsOfFile: usr + "/share/applications/decibar.desktop", encoding: .utf8)
        #expect(desktop.contains("Exec=/usr/bin/decibar"))
        let validated = try TestRig.run("desktop-file-validate", [usr + "/share/applications/decibar.desktop"])
        #expect(validated.status == 0 && validated.output.isEmpty, "\(validated.error)")
        let unit = try String(contentsOfFile: usr + "/lib/systemd/user/decibar.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/bin/decibar daemon"))
        // Verified where it will run: /usr/bin/decibar is the binary from the tree.
        let checked = destination + "/check"
        try FileManager.default.createDirectory(atPath: checked, withIntermediateDirectories: true)
        try unit.replacingOccurrences(of: "/usr/bin/decibar", with: usr + "/bin/decibar").write(toFile: checked + "/decibar.service", atomically: true, encoding: .utf8)
        let verified = try TestRig.run("systemd-analyze", ["verify", "--man=no", checked + "/decibar.service"])
        #expect(verified.status == 0 && !verified.error.contains("decibar.service"), "\(verified.error)")

        // Every man page renders without a warning.
        let pages = tree.filter { $0.hasPrefix("share/man/man1/") }
        #expect(pages.count >= 10, "\(pages)")
        for page in pages {
            let rendered = try TestRig.run("man", ["-l", usr + "/" + page], environment: ["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"])
            #expect(rendered.status == 0 && rendered.output.count > 200 && rendered.error.isEmpty, "\(page): \(rendered.error)")
        }
        // Each command's page lists what its --help lists: the settings that apply to it, and no others.
        for command in ["live", "play", "render", "levels", "daemon"] {
            let page = try String(contentsOfFile: usr + "/share/man/man1/decibar.\(command).1", encoding: .utf8)
            let help = try TestRig.run(TestRig.decibar, [command, "--help"])
            let listed = Self.options(inPage: page)
            #expect(listed == Self.options(inHelp: String(decoding: help.output, as: UTF8.self)) && listed.count > 10, "\(command): \(listed)")
            #expect(listed.contains("--layer") == (command != "render" && command != "levels"), "\(command)")
            #expect(listed.contains("--follow") == (command == "play" || command == "daemon"), "\(command)")
        }
        let bash = try String(contentsOfFile: usr + "/share/bash-completion/completions/decibar", encoding: .utf8)
        #expect(bash.contains("complete") && bash.contains("--exit-at-end"))

        // The installed binary reads the installed shaders: broken, it fails naming them; as installed, it draws.
        let environment = server.environment.merging(["DISPLAY": screen.display, "DECIBAR_SHADERS": ""]) { $1 }
        let shader = usr + "/share/decibar/Shaders/bars.frag"
        let original = try Data(contentsOf: URL(fileURLWithPath: shader))
        try Data("not glsl".utf8).write(to: URL(fileURLWithPath: shader))
        let broken = try TestRig.run(usr + "/bin/decibar", ["live", "--exit-after", "0.5", "--size", "320x180"], environment: environment)
        #expect(broken.status == 1 && broken.error.contains(usr + "/bin/../share/decibar/Shaders"), "\(broken.error)")
        try original.write(to: URL(fileURLWithPath: shader))
        let tone = server.directory + "/tone.wav"
        try TestRig.makeTone(at: tone, amplitude: 0.5, seconds: 5)
        let player = try server.play(tone)
        defer { player.kill() }
        let picture = server.directory + "/installed.png"
        let drawn = try TestRig.run(usr + "/bin/decibar", ["live", "--exit-after", "1.5", "--size", "320x180", "--screenshot", picture],
                                    environment: environment)
        #expect(drawn.status == 0, "\(drawn.error)")
        let image = try RenderTests.Frame(png: picture, width: 320, height: 180)
        // Bars in the middle of the window, painted over the theme's background.
        let tallest = (140 ... 180).map { image.paintedSpan(x: $0, theme: BarTheme.preset(named: "neon")!).height }.max() ?? 0
        #expect(tallest > 18, "no bars in the screenshot: \(tallest) px")

        let removed = try make(["uninstall"] + variables)
        #expect(removed.status == 0, "\(removed.error)")
        #expect(files(under: destination).filter { !$0.hasPrefix("check/") }.isEmpty, "\(files(under: destination))")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: usr)) == nil, "the folders install made are gone")
    }
}
