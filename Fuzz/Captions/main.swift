// libFuzzer target: caption files (SubRip, WebVTT, LRC lyrics) and what a window or a render does
// with a track it read. The first byte picks the format, the rest is the file. What reads must
// keep the captions' promises: in start order, each shown from its start until a later end, word
// offsets inside the text; `showing(at:)` gives exactly those that show; the sung part is within
// the text; wrapped lines fit the width, start where their text is, and are at most as many as asked.
import DecibarCore

private let formats = CaptionTrack.Format.allCases

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCaptions(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 0 else { return 0 }
    let format = formats[Int(data[0]) % formats.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let track = try? CaptionTrack(bytes: bytes, format: format) else { return 0 }
    precondition(!track.captions.isEmpty)
    for (earlier, later) in zip(track.captions, track.captions.dropFirst()) {
        precondition(earlier.start <= later.start, "captions in start order")
    }
    // A long track is looked at in its first captions (all of them are for `showing`'s answers).
    var times: [Double] = [0]
    for caption in track.captions.prefix(64) {
        check(caption)
        times += [caption.start, (caption.start + caption.end) / 2, caption.end]
    }
    for time in times {
        let shown = track.showing(at: time)
        precondition(shown == track.captions.filter { $0.start <= time && time < $0.end }, "showing(at: \(time))")
        for caption in shown.prefix(4) { draw(caption, at: time) }
    }
    _ = track.plainText
    _ = track.subRipText
    return 0
}

private func check(_ caption: Caption) {
    precondition(caption.start >= 0 && caption.start.isFinite && caption.end > caption.start,
                 "a caption shows from its start until a later end (\(caption.start) to \(caption.end))")
    precondition(!caption.text.isEmpty)
    let length = caption.text.utf8.count
    var previous = 0
    for word in caption.words {
        precondition(word.offset >= previous && word.offset <= length, "word offsets in order, inside the text")
        previous = word.offset
    }
    for time in [caption.start, caption.end] + caption.words.prefix(16).map(\.start) {
        if let sung = caption.sungBytes(at: time) { precondition((0 ... length).contains(sung), "sung bytes inside the text") }
    }
}

/// What the caption view does: wraps the text (two widths, the window's three lines and a composed
/// frame's one), then takes each line's sung part.
private func draw(_ caption: Caption, at time: Double) {
    let text = Array(caption.text.utf8)
    let sung = caption.sungBytes(at: time)
    for (width, maximumLines) in [(12, 3), (40, 1)] {
        let wrapped = CaptionLines(caption.text, width: width, maximumLines: maximumLines, measure: measure)
        precondition(wrapped.lines.count <= maximumLines)
        var previous = 0
        for (index, line) in wrapped.lines.enumerated() {
            precondition(measure(line.text) <= width || line.text.count <= 1, "a line fits its width: \(line.text)")
            precondition(line.offset >= previous, "lines in order")
            previous = line.offset
            // A line is the text at its offset; the last may be cut short with "…".
            var own = Array(line.text.utf8)
            if index == wrapped.lines.count - 1, !matches(own, text, at: line.offset), line.text.hasSuffix("…") {
                own.removeLast("…".utf8.count)
            }
            precondition(matches(own, text, at: line.offset), "line \(index) is the text at offset \(line.offset)")
            if let sung, sung > line.offset {
                _ = String(decoding: own.prefix(sung - line.offset), as: UTF8.self)
            }
        }
    }
}

/// A width that is not the number of characters: ASCII 1, any other scalar 2 (wide and combining alike).
private func measure(_ text: String) -> Int {
    text.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : 2) }
}

private func matches(_ piece: [UInt8], _ text: [UInt8], at offset: Int) -> Bool {
    offset >= 0 && offset + piece.count <= text.count && text[offset ..< offset + piece.count].elementsEqual(piece)
}
