import DecibarCore
import Testing

@Suite struct TextRunsTests {
    typealias Run = TextRuns.Run

    @Test("Latin only: one left-to-right run, the whole line")
    func latin() {
        let runs = TextRuns("Harbor Lights, 1998")
        #expect(!runs.rightToLeft)
        #expect(runs.runs == [Run(text: "Harbor Lights, 1998", rightToLeft: false)])
    }

    @Test("Arabic only: one right-to-left run with the Arabic script")
    func arabic() {
        let runs = TextRuns("مرحبا بالعالم")
        #expect(runs.rightToLeft)
        #expect(runs.runs == [Run(text: "مرحبا بالعالم", rightToLeft: true, script: "Arab")])
    }

    @Test("Hebrew with a number in it: the runs from the left are the words after the number, the number, the words before it")
    func hebrewWithNumber() {
        // "שיר 12 ים": read right to left, the number keeps its own order, the spaces stay in the Hebrew.
        let runs = TextRuns("שיר 12 ים")
        #expect(runs.rightToLeft)
        #expect(runs.runs == [Run(text: " ים", rightToLeft: true, script: "Hebr"), Run(text: "12", rightToLeft: false),
                              Run(text: "שיר ", rightToLeft: true, script: "Hebr")])
    }

    @Test("an English line quoting an Arabic word: the Arabic is a right-to-left run in place; the spaces beside it, between two directions, are the line's")
    func embeddedArabic() {
        let runs = TextRuns("Live in مرحبا tonight")
        #expect(!runs.rightToLeft)
        #expect(runs.runs == [Run(text: "Live in ", rightToLeft: false), Run(text: "مرحبا", rightToLeft: true, script: "Arab"),
                              Run(text: " tonight", rightToLeft: false)])
    }

    @Test("an Arabic line with an English word: the English is drawn first from the left only when it ends the line")
    func arabicWithEnglish() {
        let runs = TextRuns("أغنية Harbor")
        #expect(runs.runs == [Run(text: "Harbor", rightToLeft: false), Run(text: "أغنية ", rightToLeft: true, script: "Arab")])
        // Leading punctuation before any letter takes the line's direction; an empty line has no runs.
        #expect(TextRuns("«שלום»").runs == [Run(text: "«שלום»", rightToLeft: true, script: "Hebr")])
        #expect(TextRuns("").runs.isEmpty)
    }

    @Test("CJK is left to right, as Latin")
    func cjk() {
        #expect(TextRuns("海港灯光 2").runs == [Run(text: "海港灯光 2", rightToLeft: false)])
    }
}
