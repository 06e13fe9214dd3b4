extension CaptionTrack {
    /// LRC synced lyrics: `[mm:ss.xx]words` lines (several time tags may share a line, as a chorus
    /// does), `[ti:]`, `[ar:]` and `[offset:±ms]` tags, and the enhanced format's word times
    /// `<mm:ss.xx>`. A line shows until the next one starts (an empty line ends it: a break);
    /// the last for `lastLyricSeconds`.
    static func lyrics(_ lines: [String]) throws(CaptionError) -> (captions: [Caption], title: String?, artist: String?) {
        var timed: [(start: Double, text: String, words: [Caption.Word], line: Int)] = []
        var offset = 0.0, title: String?, artist: String?
        for (index, raw) in lines.enumerated() {
            var rest = Substring(raw.trimmingWhitespace)
            var starts: [Double] = []
            while rest.first == "[", let close = rest.firstIndex(of: "]") {
                let tag = rest[rest.index(after: rest.startIndex) ..< close]
                rest = rest[rest.index(after: close)...]
                if let first = tag.first, first.isNumber || first == "-" {
                    starts.append(try time(String(tag), line: index + 1))
                } else if let colon = tag.firstIndex(of: ":") {
                    let value = String(tag[tag.index(after: colon)...].trimmingWhitespace)
                    switch tag[..<colon].lowercased() {
                    case "offset":
                        // Positive: the lyrics come sooner (the LRC convention).
                        guard let milliseconds = Double(value.hasPrefix("+") ? String(value.dropFirst()) : value), milliseconds.isFinite else {
                            throw CaptionError("line \(index + 1): [offset:] takes milliseconds, not \"\(value.prefix(20))\"")
                        }
                        offset = milliseconds / 1000
                    case "ti": title = value.isEmpty ? nil : value
                    case "ar": artist = value.isEmpty ? nil : value
                    default: break
                    }
                }
            }
            guard !starts.isEmpty else { continue }
            let (text, words) = wordTimes(String(rest), line: index + 1)
            for start in starts { timed.append((start, text, start == starts[0] ? words : [], index + 1)) }
        }
        timed.sort { ($0.start, $0.line) < ($1.start, $1.line) }
        var captions: [Caption] = []
        for (position, line) in timed.enumerated() where !line.text.isEmpty {
            // A line the offset moves before the track's start shows from 0, one wholly before it not at all.
            let start = max(0, line.start - offset)
            let end = (position + 1 < timed.count ? timed[position + 1].start : line.start + lastLyricSeconds) - offset
            guard end > start else { continue }
            // Word times move with the offset too; a chorus repeated by extra time tags has none.
            let words = line.words.map { Caption.Word(start: $0.start - offset, offset: $0.offset) }
            captions.append(Caption(start: start, end: end, text: line.text, words: words))
        }
        if timed.isEmpty && lines.contains(where: { !$0.allSatisfy(\.isWhitespace) }) && captions.isEmpty {
            throw CaptionError("no timed lines (an LRC line starts with a time such as [01:02.50])")
        }
        return (captions, title, artist)
    }

    /// The words with `<mm:ss.xx>` times taken out, and where each timed word begins.
    private static func wordTimes(_ text: String, line: Int) -> (String, [Caption.Word]) {
        var out = ""
        var words: [Caption.Word] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            out += rest[..<open]
            if let start = try? time(String(rest[rest.index(after: open) ..< close]), line: line) {
                // The word begins after any spaces that follow the time.
                let after = rest[rest.index(after: close)...]
                let spaces = after.prefix(while: { $0 == " " })
                out += spaces
                words.append(Caption.Word(start: start, offset: out.utf8.count))
                rest = after.dropFirst(spaces.count)
            } else {
                out += rest[open ... close]
                rest = rest[rest.index(after: close)...]
            }
        }
        out += rest
        let trimmed = String(out.trimmingWhitespace)
        // Leading spaces removed shift every offset back.
        let cut = out.utf8.count - out.drop(while: \.isWhitespace).utf8.count
        let shifted = words.map { Caption.Word(start: $0.start, offset: max(0, min(trimmed.utf8.count, $0.offset - cut))) }
        return (trimmed, shifted)
    }
}
