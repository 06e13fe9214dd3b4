import DecibarAudio
import Glibc

/// Standard input as the bytes a decoder reads (`decibar peaks -`): front to back, once, since a
/// pipe cannot go back. Nothing of it is kept here: the decoder's own buffer is all that waits.
// Unchecked: only the one decoder that owns it reads, on one thread.
final class PipeInput: AudioByteSource, @unchecked Sendable {
    private let descriptor: Int32
    private var position: Int64 = 0

    init(descriptor: Int32 = STDIN_FILENO) {
        self.descriptor = descriptor
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> AudioByteRead {
        guard offset == position else { return .failed("standard input cannot be read again from an earlier place") }
        do {
            let count = try Posix.read(descriptor, into: buffer)
            guard count > 0 else { return .end }
            position += Int64(count)
            return .bytes(count)
        } catch {
            return .failed("cannot read standard input: \(error)")
        }
    }

    var size: Int64? { nil }
    var isSeekable: Bool { false }
}
