import FoundationEssentials

extension AudiowaveformFormat {
    /// The JSON document as audiowaveform writes it (version 1 has no `channels`).
    private struct Document: Decodable {
        var version: Int
        var channels: Int?
        var sampleRate: Int
        var samplesPerPixel: Int
        var bits: Int
        var length: Int
        var data: [Int]

        enum CodingKeys: String, CodingKey {
            case version, channels, bits, length, data
            case sampleRate = "sample_rate"
            case samplesPerPixel = "samples_per_pixel"
        }
    }

    /// Reads audiowaveform JSON back into peaks (values scaled back to -1...1).
    public static func peaks(fromJSON bytes: [UInt8]) throws(ReadError) -> Peaks {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch {
            throw ReadError(description: "not audiowaveform JSON (\(Self.describe(error)))")
        }
        let channels = document.version == 1 ? 1 : document.channels ?? 0
        guard document.version == 1 || document.version == 2 else {
            throw ReadError(description: "unknown waveform data version \(document.version)")
        }
        // The binary format holds each of these in 32 bits; a JSON file must not hold more.
        let field = 0 ... Int(Int32.max)
        guard document.bits == 8 || document.bits == 16, document.sampleRate >= 1, document.samplesPerPixel >= 2,
              field.contains(document.sampleRate), field.contains(document.samplesPerPixel), field.contains(document.length),
              (1 ... maximumChannels).contains(channels) else {
            throw ReadError(description: "invalid waveform data header")
        }
        guard document.data.count == document.length * channels * 2 else {
            throw ReadError(description: "waveform data holds \(document.data.count) values, the header says \(document.length * channels * 2)")
        }
        let range = document.bits == 8 ? -128 ... 127 : -32768 ... 32767
        guard document.data.allSatisfy(range.contains) else {
            throw ReadError(description: "waveform data has values outside \(document.bits) bits")
        }
        let scale: Float = document.bits == 8 ? 256.0 / 32767 : 1.0 / 32767
        var pairs = Array(repeating: [PeakPair](), count: channels)
        for channel in pairs.indices { pairs[channel].reserveCapacity(document.length) }
        var index = 0
        for _ in 0 ..< document.length {
            for channel in 0 ..< channels {
                pairs[channel].append(PeakPair(min: Float(document.data[index]) * scale, max: Float(document.data[index + 1]) * scale))
                index += 2
            }
        }
        return Peaks(sampleRate: document.sampleRate, samplesPerPixel: document.samplesPerPixel, channelCount: channels,
                     pairs: pairs)
    }

    /// A decoding error in a few words, without Swift's type names.
    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "no \"\(key.stringValue)\""
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            "wrong type at \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case .dataCorrupted: "malformed JSON"
        default: "malformed JSON"
        }
    }
}
