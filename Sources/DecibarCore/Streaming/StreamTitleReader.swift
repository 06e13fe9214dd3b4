/// Separates a radio stream's audio from its interleaved titles (ICY metadata): after every
/// `interval` audio bytes comes one length byte L, then L × 16 bytes of text such as
/// `StreamTitle='Artist - Title';StreamUrl='…';`, padded with NULs (L = 0: no change).
///
/// The titles must never reach the decoder: they would be decoded as audio.
public struct StreamTitleReader: Sendable {
    public let interval: Int
    private var audioLeft: Int
    /// Bytes of the title block still to come, and the block so far.
    private var metadataLeft = 0
    private var expectingLength = false
    private var block: [UInt8] = []

    public init(interval: Int) {
        precondition(interval > 0, "the interval must be positive")
        self.interval = interval
        audioLeft = interval
    }

    /// Passes the audio in `bytes` to `audio` (in one or more pieces, in order) and returns the
    /// titles completed in them.
    public mutating func read(_ bytes: UnsafeRawBufferPointer, audio: (UnsafeRawBufferPointer) -> Void) -> [String] {
        var titles: [String] = []
        var index = 0
        while index < bytes.count {
            if expectingLength {
                metadataLeft = Int(bytes[index]) * 16
                index += 1
                expectingLength = false
                block.removeAll(keepingCapacity: true)
                if metadataLeft == 0 { audioLeft = interval }
                continue
            }
            if metadataLeft > 0 {
                let take = min(metadataLeft, bytes.count - index)
                block.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[index ..< index + take]))
                index += take
                metadataLeft -= take
                if metadataLeft == 0 {
                    if let title = Self.title(in: block) { titles.append(title) }
                    audioLeft = interval
                }
                continue
            }
            let take = min(audioLeft, bytes.count - index)
            audio(UnsafeRawBufferPointer(rebasing: bytes[index ..< index + take]))
            index += take
            audioLeft -= take
            if audioLeft == 0 { expectingLength = true }
        }
        return titles
    }

    /// `StreamTitle='…';` from a block, or nil when it has none. A title may itself hold `';`,
    /// so the value runs to the last `';` before the next field (or the end).
    public static func title(in block: [UInt8]) -> String? {
        let text = block.prefix { $0 != 0 }
        guard let start = text.firstRange(of: Array("StreamTitle='".utf8)) else { return nil }
        let rest = text[start.upperBound...]
        let end = rest.firstRange(of: Array("';StreamUrl=".utf8))?.lowerBound ?? rest.ranges(of: Array("';".utf8)).last?.lowerBound ?? rest.endIndex
        return String(decoding: rest[..<end], as: UTF8.self).escapingControlCharacters
    }
}
