extension CaptionTrack {
    /// The captions as a SubRip file, in whole milliseconds (the finest SubRip and mov_text keep):
    /// what `render --captions-track` muxes as a soft subtitle track. Captions without words are
    /// left out, and a blank line inside one (which would end its cue) is dropped.
    public var subRipText: String {
        var text = ""
        var number = 0
        for caption in captions {
            let body = caption.text.split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }.joined(separator: "\n")
            guard !body.isEmpty else { continue }
            number += 1
            text += "\(number)\n\(Self.subRipTime(caption.start)) --> \(Self.subRipTime(caption.end))\n\(body)\n\n"
        }
        return text
    }

    /// `seconds` as SubRip writes a time: `HH:MM:SS,mmm`, rounded to the millisecond.
    static func subRipTime(_ seconds: Double) -> String {
        let total = Int64((max(0, seconds) * 1000).rounded())
        func padded(_ value: Int64, _ digits: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        return "\(padded(total / 3_600_000, 2)):\(padded(total / 60_000 % 60, 2)):\(padded(total / 1000 % 60, 2)),\(padded(total % 1000, 3))"
    }
}
