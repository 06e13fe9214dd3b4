import DecibarCore
import Testing

@Suite struct CaptionTrackTests {
    private func track(_ text: String, _ format: CaptionTrack.Format) throws -> CaptionTrack {
        try CaptionTrack(bytes: Array(text.utf8), format: format)
    }

    private func failure(_ text: String, _ format: CaptionTrack.Format) -> String? {
        do {
            _ = try CaptionTrack(bytes: Array(text.utf8), format: format)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func subRipCuesWithMarkupAndTwoLines() throws {
        let srt = "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> there\r\n\r\n2\r\n00:00:03,250 --> 00:00:05,000\r\nTwo\r\nlines &amp; more\r\n"
        let cues = try track(srt, .subRip).captions
        #expect(cues == [Caption(start: 1, end: 2.5, text: "Hello there"), Caption(start: 3.25, end: 5, text: "Two\nlines & more")])
    }

    @Test func cuesOutOfOrderAreSortedAndOverlapsShowTogether() throws {
        let srt = "2\n00:00:04,000 --> 00:00:06,000\nsecond\n\n1\n00:00:01,000 --> 00:00:05,000\nfirst\n"
        let captions = try track(srt, .subRip)
        #expect(captions.captions.map(\.text) == ["first", "second"])
        #expect(captions.showing(at: 0.999).isEmpty)
        #expect(captions.showing(at: 1).map(\.text) == ["first"])
        #expect(captions.showing(at: 4.5).map(\.text) == ["first", "second"])
        #expect(captions.showing(at: 5).map(\.text) == ["second"])
        #expect(captions.showing(at: 6).isEmpty)
    }

    @Test func webVTTWithHeaderNotesSettingsVoicesAndWordTimes() throws {
        let vtt = """
        WEBVTT - a talk

        NOTE made by hand

        intro
        00:01.000 --> 00:04.000 align:center line:90%
        <v Ann>Welcome <00:02.000>to <00:03.000>the show

        01:00:00.000 --> 01:00:01.500
        late
        """
        let cues = try track(vtt, .webVTT).captions
        #expect(cues.count == 2)
        #expect(cues[0] == Caption(start: 1, end: 4, text: "Welcome to the show",
                                   words: [.init(start: 2, offset: 8), .init(start: 3, offset: 11)]))
        #expect(cues[1] == Caption(start: 3600, end: 3601.5, text: "late"))
        // Highlight: before the first timed word nothing of it is sung yet ("Welcome " is before it).
        #expect(cues[0].sungBytes(at: 2.5) == 10)
        #expect(cues[0].sungBytes(at: 3.5) == 19)
    }

    @Test func lyricsWithOffsetRepeatsBreaksAndWordTimes() throws {
        let lrc = """
        [ti:Night Drive]
        [ar:The Examples]
        [offset:+500]
        [00:10.00]First <00:11.00>line <00:12.50>here
        [00:15.00][00:30.00]Chorus
        [00:20.00]
        [00:25.00]Third
        """
        let lyrics = try track(lrc, .lyrics)
        #expect(lyrics.title == "Night Drive" && lyrics.artist == "The Examples")
        #expect(lyrics.captions == [
            Caption(start: 9.5, end: 14.5, text: "First line here", words: [.init(start: 10.5, offset: 6), .init(start: 12, offset: 11)]),
            Caption(start: 14.5, end: 19.5, text: "Chorus"),
            Caption(start: 24.5, end: 29.5, text: "Third"),
            Caption(start: 29.5, end: 29.5 + CaptionTrack.lastLyricSeconds, text: "Chorus"),
        ])
        #expect(lyrics.captions[0].sungBytes(at: 9.6) == 0)
        #expect(lyrics.captions[0].sungBytes(at: 11) == 10)
        #expect(lyrics.plainText == "First line here\nChorus\nThird\nChorus")
    }

    @Test func anOffsetBeforeTheStartDropsLinesThatEndByThen() throws {
        // +5 s: the first line would show from -4 s to -3 s; the second spans the start.
        let lyrics = try track("[offset:+5000]\n[00:01.00]gone <00:01.50>early\n[00:02.00]cut\n[00:06.00]kept\n", .lyrics)
        #expect(lyrics.captions == [Caption(start: 0, end: 1, text: "cut"), Caption(start: 1, end: 1 + CaptionTrack.lastLyricSeconds, text: "kept")])
        #expect(lyrics.captions.allSatisfy { $0.end > $0.start })
        #expect(!lyrics.subRipText.contains("00:00:00,000 --> 00:00:00,000"))
        #expect(failure("[offset:+9000]\n[00:01.00]all\n", .lyrics) == "no captions in it")
    }

    @Test func subRipForTheSubtitleTrack() throws {
        // LRC: an offset, a break (left out), a line of two words, and the last line's 8 s.
        let lyrics = try track("[offset:+250]\n[00:01.50]First <00:02.00>line\n[00:03.00]\n[01:02.345]Last\n", .lyrics)
        #expect(lyrics.subRipText == """
            1
            00:00:01,250 --> 00:00:02,750
            First line

            2
            00:01:02,095 --> 00:01:10,095
            Last


            """)
        // Two lines stay two lines; a blank line inside a caption is dropped; an hour is written as hours.
        let cues = CaptionTrack(captions: [Caption(start: 3600.0004, end: 3601.9996, text: "one\n \ntwo")])
        #expect(cues.subRipText == "1\n01:00:00,000 --> 01:00:02,000\none\ntwo\n\n")
    }

    @Test func badFilesSayWhatIsWrongInOneLine() {
        #expect(failure("", .subRip) == "no captions in it")
        #expect(failure("\n\n  \n", .lyrics) == "no captions in it")
        #expect(failure("just words\nno times\n", .lyrics) == "no timed lines (an LRC line starts with a time such as [01:02.50])")
        #expect(failure("1\n00:00:05,000 --> 00:00:04,000\nbackwards\n", .subRip) == "line 2: the cue ends (00:00:04,000) before it starts")
        #expect(failure("1\n-00:00:01,000 --> 00:00:04,000\nnegative\n", .subRip) == "line 2: a negative time (-00:00:01,000)")
        #expect(failure("1\nsoon --> later\nwords\n", .subRip) == "line 2: \"soon\" is not a time such as 00:01:02,500")
        #expect(failure("1\nwords without times\n", .subRip) == "line 1: no \"start --> end\" times for this cue")
        #expect(failure("00:01.000 --> 00:02.000\nno header\n", .webVTT) == "line 1: a WebVTT file starts with WEBVTT")
        #expect(failure("[offset:soon]\n[00:01.00]x\n", .lyrics) == "line 1: [offset:] takes milliseconds, not \"soon\"")
        #expect(failure("[-00:01.00]x\n", .lyrics) == "line 1: a negative time (-00:01.00)")
        #expect((try? CaptionTrack(bytes: [0x31, 0x00, 0x32], format: .subRip)) == nil)
        #expect(failure(String(decoding: [0xFF, 0xFE, 0x41], as: UTF8.self), .subRip) != nil)
        do {
            _ = try CaptionTrack(bytes: [0xC3, 0x28, 0x0A], format: .lyrics)
            Issue.record("invalid UTF-8 was read")
        } catch {
            #expect(error.message == "not text (not UTF-8)")
        }
    }

    @Test func formatsByExtension() {
        #expect(CaptionTrack.format(ofPath: "/a/talk.SRT") == .subRip)
        #expect(CaptionTrack.format(ofPath: "song.lrc") == .lyrics)
        #expect(CaptionTrack.format(ofPath: "x.vtt") == .webVTT)
        #expect(CaptionTrack.format(ofPath: "dir.srt/file") == nil)
        #expect(CaptionTrack.format(ofPath: "notes.txt") == nil)
    }
}

@Suite struct CaptionLinesTests {
    /// Ten units a character: a width of 100 takes ten characters.
    private func lines(_ text: String, width: Int = 100, maximumLines: Int = 3) -> [CaptionLines.Line] {
        CaptionLines(text, width: width, maximumLines: maximumLines) { $0.count * 10 }.lines
    }

    @Test func wrapsBetweenWordsAndKeepsWhereEachLineStarts() {
        #expect(lines("the quick brown fox jumps") == [.init(text: "the quick", offset: 0), .init(text: "brown fox", offset: 10),
                                                     .init(text: "jumps", offset: 20)])
        #expect(lines("two\nlines") == [.init(text: "two", offset: 0), .init(text: "lines", offset: 4)])
        #expect(lines("fits fine.") == [.init(text: "fits fine.", offset: 0)])
    }

    @Test func aWordWiderThanTheLineIsCutAndTooManyLinesEndInAnEllipsis() {
        #expect(lines("abcdefghijklmnopqrstuvwxyz", maximumLines: 5) == [.init(text: "abcdefghij", offset: 0),
                                                                       .init(text: "klmnopqrst", offset: 10),
                                                                       .init(text: "uvwxyz", offset: 20)])
        let long = String(repeating: "word ", count: 2000)
        let kept = lines(long, maximumLines: 2)
        #expect(kept == [.init(text: "word word", offset: 0), .init(text: "word word…", offset: 10)])
        #expect(lines("x", width: 5, maximumLines: 1) == [.init(text: "x", offset: 0)])
    }

    @Test func sizePresetsNameTheShapesVideosArePostedIn() {
        #expect(ConfigKey.size("9:16")! == (1080, 1920))
        #expect(ConfigKey.size("16:9")! == (1920, 1080))
        #expect(ConfigKey.size("1:1")! == (1080, 1080))
        #expect(ConfigKey.size("4:5")! == (1080, 1350))
        #expect(ConfigKey.size("854x480")! == (854, 480))
        #expect(ConfigKey.size("3:2") == nil)
    }
}
