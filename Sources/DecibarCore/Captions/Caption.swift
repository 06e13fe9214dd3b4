/// One timed line of words: a subtitle cue or a line of synced lyrics.
public struct Caption: Sendable, Equatable {
    /// Seconds into the track: shown from `start` (inclusive) until `end` (exclusive).
    public var start: Double
    public var end: Double
    /// The words, lines separated by "\n", markup removed.
    public var text: String
    /// When each word starts, where the file says (LRC's `<mm:ss.xx>`, WebVTT's `<00:00:01.000>`):
    /// offsets into `text` in UTF-8 bytes, in order. Empty when the file gives none.
    public var words: [Word]

    public struct Word: Sendable, Equatable {
        public var start: Double
        /// Where the word begins in `text`, in UTF-8 bytes.
        public var offset: Int

        public init(start: Double, offset: Int) {
            self.start = start
            self.offset = offset
        }
    }

    public init(start: Double, end: Double, text: String, words: [Word] = []) {
        self.start = start
        self.end = end
        self.text = text
        self.words = words
    }

    /// How much of `text` (UTF-8 bytes from the start) has been sung by `time`: up to the end of
    /// the word being sung, or nil when the file gives no word times.
    public func sungBytes(at time: Double) -> Int? {
        guard !words.isEmpty else { return nil }
        guard let current = words.lastIndex(where: { $0.start <= time }) else { return 0 }
        let next = current + 1 < words.count ? words[current + 1].offset : text.utf8.count
        // The end of the current word: the next word's start, less the spaces before it.
        let bytes = Array(text.utf8)
        var end = next
        while end > words[current].offset && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x0A) { end -= 1 }
        return end
    }
}
