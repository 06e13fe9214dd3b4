extension CaptionTrack {
    /// SubRip and WebVTT cues: blocks separated by blank lines, each an optional identifier, a
    /// `start --> end` line (WebVTT's cue settings after it ignored) and the text.
    static func cues(_ lines: [String], webVTT: Bool) throws(CaptionError) -> [Caption] {
        var captions: [Caption] = []
        var index = 0
        if webVTT {
            guard lines.first?.hasPrefix("WEBVTT") == true else { throw CaptionError("line 1: a WebVTT file starts with WEBVTT") }
            // The header block ends at the first blank line.
            while index < lines.count && !lines[index].allSatisfy(\.isWhitespace) { index += 1 }
        }
        while index < lines.count {
            // Skip blank lines, then read one block.
            while index < lines.count && lines[index].allSatisfy(\.isWhitespace) { index += 1 }
            guard index < lines.count else { break }
            var block: [(number: Int, text: String)] = []
            while index < lines.count && !lines[index].allSatisfy(\.isWhitespace) {
                block.append((index + 1, lines[index]))
                index += 1
            }
            if webVTT, let first = block.first?.text, first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION") {
                continue
            }
            guard let timing = block.firstIndex(where: { $0.text.contains("-->") }), timing <= 1 else {
                throw CaptionError("line \(block[0].number): no \"start --> end\" times for this cue")
            }
            let number = block[timing].number
            let parts = block[timing].text.split(separator: "-->", omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else { throw CaptionError("line \(number): no \"start --> end\" times for this cue") }
            let endText = parts[1].split(whereSeparator: \.isWhitespace).first.map(String.init) ?? ""
            let start = try time(parts[0], line: number)
            let end = try time(endText, line: number)
            guard end > start else { throw CaptionError("line \(number): the cue ends (\(endText)) before it starts") }
            let (text, words) = markupRemoved(block[(timing + 1)...].map(\.text).joined(separator: "\n"), line: number)
            guard !text.isEmpty else { continue }
            captions.append(Caption(start: start, end: end, text: text, words: words.filter { $0.start >= start && $0.start < end }))
        }
        return captions
    }

    /// `HH:MM:SS,mmm`, `HH:MM:SS.mmm` or `MM:SS.mmm` in seconds.
    static func time(_ text: String, line: Int) throws(CaptionError) -> Double {
        let trimmed = text.trimmingWhitespace
        if trimmed.hasPrefix("-") { throw CaptionError("line \(line): a negative time (\(trimmed))") }
        let fields = trimmed.replacing(",", with: ".").split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), let seconds = Double(fields[fields.count - 1]), seconds >= 0, seconds < 60,
              fields.dropLast().allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && Int($0) != nil }) else {
            throw CaptionError("line \(line): \"\(trimmed.prefix(40))\" is not a time such as 00:01:02,500")
        }
        let minutes = Double(Int(fields[fields.count - 2])!)
        let hours = fields.count == 3 ? Double(Int(fields[0])!) : 0
        guard minutes >= 0, hours >= 0 else { throw CaptionError("line \(line): a negative time (\(trimmed))") }
        return hours * 3600 + minutes * 60 + seconds
    }

    /// The text without markup (`<i>`, `<b>`, `<font …>`, WebVTT's `<v Name>`, `<c.class>`, and
    /// `{\an8}`-style override codes), and the word times WebVTT gives as `<00:00:01.000>`.
    static func markupRemoved(_ text: String, line: Int) -> (String, [Caption.Word]) {
        var out = ""
        var words: [Caption.Word] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(where: { $0 == "<" || $0 == "{" }) {
            out += rest[..<open]
            let closing: Character = rest[open] == "<" ? ">" : "}"
            guard let close = rest[open...].firstIndex(of: closing) else {
                out += rest[open...]
                rest = ""
                break
            }
            let tag = rest[rest.index(after: open) ..< close]
            if closing == ">", let first = tag.first, first.isNumber, let start = try? time(String(tag), line: line) {
                words.append(Caption.Word(start: start, offset: out.utf8.count))
            }
            rest = rest[rest.index(after: close)...]
        }
        out += rest
        let entities = [("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{00A0}")]
        if out.contains("&") {
            // Entities only shorten the text before a word offset when they come before it: rare
            // enough in timed cues that they are resolved only where there are no word times.
            if words.isEmpty { for (entity, character) in entities { out = out.replacing(entity, with: character) } }
        }
        return (out.trimmingWhitespace.isEmpty ? "" : out, words)
    }
}

extension StringProtocol {
    /// Without spaces, tabs and line ends at either end.
    var trimmingWhitespace: SubSequence {
        let start = firstIndex { !$0.isWhitespace } ?? endIndex
        let end = lastIndex { !$0.isWhitespace }.map { index(after: $0) } ?? start
        return self[start ..< Swift.max(start, end)]
    }
}
