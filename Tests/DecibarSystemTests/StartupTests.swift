import Foundation
import Testing

/// What a hotkey's command loads: `decibar --version` and `decibar ctl` must start without the
/// libraries of drawing, decoding and analysis, which the adapters open only on first use.
@Suite("Start-up loads only what the command needs")
struct StartupTests {
    /// Libraries `ctl` and `--version` must not map, by the start of their sonames.
    static let unwanted = ["libSDL2", "libGL", "libEGL", "libX11", "libavcodec", "libavformat", "libavutil", "libswresample",
                           "librubberband", "libfftw3", "libsndfile", "libebur128", "libpng", "libsystemd", "libpulse", "libprojectM",
                           "libdecibar-milkdrop"]

    /// The sonames the loader opened for `arguments` (its own log, LD_DEBUG=files).
    func loaded(_ arguments: [String]) throws -> (status: Int32, libraries: [String]) {
        let result = try TestRig.run(TestRig.decibar, arguments, environment: ["LD_DEBUG": "files"])
        let libraries = result.error.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            // A library opened by path is logged by its path.
            let file = line[range.upperBound...].prefix { $0 != " " && $0 != "\t" }
            return String(file.split(separator: "/").last ?? file)
        }
        return (result.status, Array(Set(libraries)).sorted())
    }

    @Test("--version and ctl (against no daemon) map no SDL, GL, X11, FFmpeg, Rubber Band, FFTW or PulseAudio")
    func lean() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for arguments in [["--version"], ["ctl", "--socket", folder + "/none.sock", "status"], ["ctl", "--socket", folder + "/none.sock", "toggle"]] {
            let (status, libraries) = try loaded(arguments)
            // The log is real: the C library is always there.
            #expect(libraries.contains("libc.so.6"), "no loader log for \(arguments): \(libraries)")
            #expect(status == (arguments == ["--version"] ? 0 : 1), "\(arguments) exited \(status)")
            let mapped = libraries.filter { library in Self.unwanted.contains { library.hasPrefix($0) } }
            #expect(mapped.isEmpty, "\(arguments.joined(separator: " ")) loaded \(mapped)")
        }
    }

    @Test("a command that needs a library still opens it on first use (the check above can see one: peaks opens libsndfile)")
    func opensOnUse() throws {
        let folder = try TestRig.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try TestRig.makeTone(at: folder + "/tone.wav", amplitude: 0.5, seconds: 1)
        let (status, libraries) = try loaded(["peaks", folder + "/tone.wav", "-o", folder + "/tone.json"])
        #expect(status == 0)
        #expect(libraries.contains { $0.hasPrefix("libsndfile") }, "\(libraries)")
        #expect(!libraries.contains { $0.hasPrefix("libSDL2") }, "\(libraries)")
    }
}
