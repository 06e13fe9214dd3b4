import DecibarCore
import Testing

struct StreamTitleReaderTests {
    /// A radio body: `interval` audio bytes, then a title block, twice, with an empty block between.
    func body(interval: Int) -> (bytes: [UInt8], audio: [UInt8]) {
        var bytes: [UInt8] = []
        var audio: [UInt8] = []
        func block(_ text: String) -> [UInt8] {
            let utf8 = Array(text.utf8)
            let count = (utf8.count + 15) / 16
            return [UInt8(count)] + utf8 + [UInt8](repeating: 0, count: count * 16 - utf8.count)
        }
        let blocks = [block("StreamTitle='Artist - Song';StreamUrl='http://x';"), [0], block("StreamTitle='It';s here';")]
        for (number, meta) in blocks.enumerated() {
            let piece = (0 ..< interval).map { UInt8(truncatingIfNeeded: $0 * 7 + number) }
            bytes += piece + meta
            audio += piece
        }
        return (bytes, audio)
    }

    @Test("the audio passes through without the title blocks, and the titles come out, whatever the chunking", arguments: [1, 3, 7, 100, 5000])
    func separates(chunk: Int) {
        let (bytes, expected) = body(interval: 50)
        var reader = StreamTitleReader(interval: 50)
        var audio: [UInt8] = []
        var titles: [String] = []
        var index = 0
        while index < bytes.count {
            let end = min(bytes.count, index + chunk)
            bytes[index ..< end].withUnsafeBytes { piece in
                titles += reader.read(piece) { audio += $0 }
            }
            index = end
        }
        #expect(audio == expected)
        #expect(titles == ["Artist - Song", "It';s here"])
    }

    @Test("a block without a StreamTitle is no title; control characters are escaped")
    func titleText() {
        #expect(StreamTitleReader.title(in: Array("StreamUrl='x';".utf8)) == nil)
        #expect(StreamTitleReader.title(in: Array("StreamTitle='';".utf8)) == "")
        #expect(StreamTitleReader.title(in: Array("StreamTitle='a\u{1B}[31mb';".utf8))?.contains("\u{1B}") == false)
    }
}
