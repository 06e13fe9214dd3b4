import DecibarCore
import Foundation
import Testing

/// Chapters from a Matroska file's own (written by ffmpeg from a metadata file) and from a cue
/// sheet beside a FLAC, through the daemon's player: `player.chapters` and `ctl chapter`.
@Suite("Chapters in the daemon's player")
struct ChapterTests {
    func chapters(_ rig: DaemonRig) throws -> [Chapter] {
        guard case .array(let list)? = try rig.player("chapters") else { throw RigError("no player.chapters in the status") }
        return list.compactMap { value in
            guard case .object(let chapter) = value, let title = chapter["title"]?.string, let start = chapter["start"]?.number else { return nil }
            return Chapter(title: title, start: start)
        }
    }

    func position(_ rig: DaemonRig) throws -> Double { (try rig.player("position"))?.number ?? -1 }

    /// Opens `file` paused at `at` seconds, once its length is known.
    func open(_ file: String, in rig: DaemonRig, pausedAt at: Double) throws {
        #expect(try rig.ctl("open", file).status == 0)
        #expect(TestRig.wait(timeout: 20) { ((try? rig.player("duration"))?.number ?? 0) >= 19.9 })
        #expect(try rig.ctl("pause").status == 0)
        #expect(try rig.ctl("seek", "\(at)").status == 0)
    }

    @Test("a Matroska file's four chapters are listed; chapter next lands on the next start, previous goes back as a CD player does")
    func matroska() throws {
        let rig = try DaemonRig()
        let folder = rig.server.directory
        let metadata = folder + "/chapters.txt"
        var text = ";FFMETADATA1\n"
        for (index, title) in ["Intro", "Verse", "Chorus", "Outro"].enumerated() {
            text += "[CHAPTER]\nTIMEBASE=1/1000\nSTART=\(index * 5000)\nEND=\((index + 1) * 5000)\ntitle=\(title)\n"
        }
        try text.write(toFile: metadata, atomically: true, encoding: .utf8)
        let file = folder + "/chapters.mkv"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=20",
                                              "-i", metadata, "-map", "0", "-map_chapters", "1", "-c:a", "flac", file])
        #expect(made.status == 0, "\(made.error)")
        try open(file, in: rig, pausedAt: 6)
        #expect(try chapters(rig) == [Chapter(title: "Intro", start: 0), Chapter(title: "Verse", start: 5),
                                      Chapter(title: "Chorus", start: 10), Chapter(title: "Outro", start: 15)])
        #expect(try rig.ctl("chapter", "next").status == 0)
        let next = try position(rig)
        #expect(abs(next - 10) <= 0.05, "\(next)")
        // Just in: back to the one before; 3 s in: the start of this one.
        #expect(try rig.ctl("chapter", "previous").status == 0)
        #expect(abs(try position(rig) - 5) <= 0.05)
        #expect(try rig.ctl("seek", "19").status == 0)
        #expect(try rig.ctl("chapter", "previous").status == 0)
        #expect(abs(try position(rig) - 15) <= 0.05)
        // In the last chapter there is no next: one line, and the playhead stays.
        let last = try rig.ctl("chapter", "next")
        #expect(last.status != 0 && last.error.contains("last chapter"), "\(last)")
        // Playing: the audio moves on from the chapter's start.
        #expect(try rig.ctl("seek", "1").status == 0)
        #expect(try rig.ctl("play").status == 0)
        #expect(try rig.ctl("chapter", "next").status == 0)
        let landed = try position(rig)
        #expect(landed >= 4.95 && landed <= 5.3, "\(landed)")
    }

    @Test("a FLAC with a cue sheet beside it: the sheet's tracks are its chapters")
    func cueSheet() throws {
        let rig = try DaemonRig()
        let folder = rig.server.directory
        let file = folder + "/album.flac"
        let made = try TestRig.run("ffmpeg", ["-v", "error", "-nostdin", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=20",
                                              "-c:a", "flac", file])
        #expect(made.status == 0, "\(made.error)")
        // Written for the WAV image it was ripped to, as sheets often are; Latin-1, as old rippers wrote them.
        let sheet = "FILE \"CDImage.wav\" WAVE\n  TRACK 01 AUDIO\n    TITLE \"Caf\u{E9}\"\n    INDEX 01 00:00:00\n"
            + "  TRACK 02 AUDIO\n    TITLE \"Second\"\n    INDEX 01 00:07:38\n  TRACK 03 AUDIO\n    INDEX 01 00:14:00\n"
        try Data(sheet.unicodeScalars.map { UInt8($0.value) }).write(to: URL(fileURLWithPath: folder + "/album.cue"))
        try open(file, in: rig, pausedAt: 1)
        #expect(try chapters(rig) == [Chapter(title: "Caf\u{E9}", start: 0), Chapter(title: "Second", start: 7.507),
                                      Chapter(title: "Track 3", start: 14)])
        #expect(try rig.ctl("chapter", "next").status == 0)
        let second = try position(rig)
        #expect(abs(second - 7.507) <= 0.05, "\(second)")
        // A file without chapters says so in one line.
        let plain = folder + "/plain.wav"
        try TestRig.makeTone(at: plain, amplitude: 0.3, seconds: 20)
        try open(plain, in: rig, pausedAt: 1)
        #expect(try chapters(rig).isEmpty)
        let none = try rig.ctl("chapter", "next")
        #expect(none.status != 0 && none.error.contains("no chapters"), "\(none)")
    }
}
