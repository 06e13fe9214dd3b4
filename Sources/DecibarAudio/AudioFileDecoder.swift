// placeholder until the decoder lands
public struct AudioFileError: Error, CustomStringConvertible, Sendable { public let path: String; public let reason: String; public var description: String { "\(path): \(reason)" } }
public final class AudioFileDecoder {
    public let sampleRate = 48000
    public let channelCount = 2
    public init(path: String, maxChannels: Int = 8) throws(AudioFileError) { throw AudioFileError(path: path, reason: "todo") }
    public func read(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioFileError) -> Bool { false }
}
