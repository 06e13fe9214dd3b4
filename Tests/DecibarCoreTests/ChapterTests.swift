import DecibarCore
import Testing

@Suite("Chapters and cue sheets")
struct ChapterTests {
    static let sheet = """
        \u{FEFF}REM GENRE Electronic
        PERFORMER "Someone"
        TITLE "The Album"
        FILE "CDImage.wav" WAVE
          TRACK 01 AUDIO
            TITLE "Opening"
            INDEX 01 00:00:00
          TRACK 02 AUDIO
            TITLE "Second Song"
            PREGAP 00:02:00
            INDEX 00 03:58:50
            INDEX 01 04:00:37
          TRACK 03 AUDIO
            INDEX 01 120:05:74
        """

    @Test("a one-file sheet: each track at its INDEX 01 (frames of 1/75 s), titled, whatever the FILE is called")
    func oneFile() {
        #expect(CueSheet.chapters(from: Self.sheet, fileName: "album.flac") == [
            Chapter(title: "Opening", start: 0), Chapter(title: "Second Song", start: 240 + 37.0 / 75),
            Chapter(title: "Track 3", start: 7205 + 74.0 / 75),
        ])
        #expect(CueSheet.chapters(from: Self.sheet.replacingOccurrences(of: "\n", with: "\r\n")) == CueSheet.chapters(from: Self.sheet))
    }

    @Test("a sheet of several files: the tracks of the one asked for, from its own start")
    func severalFiles() {
        let sheet = """
            FILE "a.flac" WAVE
              TRACK 01 AUDIO
                TITLE "A"
                INDEX 01 00:00:00
            FILE "b.flac" WAVE
              TRACK 02 AUDIO
                TITLE "B one"
                INDEX 01 00:00:00
              TRACK 03 AUDIO
                TITLE "B two"
                INDEX 01 01:00:00
            """
        #expect(CueSheet.chapters(from: sheet, fileName: "b.flac") == [Chapter(title: "B one", start: 0), Chapter(title: "B two", start: 60)])
        #expect(CueSheet.chapters(from: sheet, fileName: "c.flac") == nil)
    }

    @Test("what is not a cue sheet, or gives no track a start, gives nothing (and bad times are skipped)", arguments: [
        "", "hello\nworld", "TRACK 01 AUDIO\nINDEX 01 00:61:00", "TRACK 01 AUDIO\nINDEX 01 00:00:75",
        "TRACK 01 AUDIO\nINDEX 01 99999999999999999999:00:00", "TRACK 01 AUDIO\nINDEX 00 00:01:00", "INDEX 01 00:00:00",
    ])
    func nothing(text: String) {
        #expect(CueSheet.chapters(from: text) == nil)
    }

    @Test("next goes to the chapter after the playhead; previous to the start of this one after 3 s, else the one before")
    func navigation() {
        let chapters = [Chapter(title: "a", start: 0), Chapter(title: "b", start: 10), Chapter(title: "c", start: 20)]
        #expect(chapters.next(after: 0) == chapters[1] && chapters.next(after: 12) == chapters[2] && chapters.next(after: 20) == nil)
        // A playhead a hair before a start it was sent to counts as there.
        #expect(chapters.next(after: 9.98) == chapters[2] && chapters.index(at: 9.98) == 1)
        #expect(chapters.previous(before: 15) == chapters[1] && chapters.previous(before: 11) == chapters[0])
        #expect(chapters.previous(before: 1) == chapters[0] && chapters.previous(before: 25) == chapters[2])
        #expect([Chapter(title: "late", start: 5)].previous(before: 2) == Chapter(title: "late", start: 5))
        #expect([Chapter]().next(after: 0) == nil && [Chapter]().index(at: 3) == nil)
    }
}
