// libFuzzer target: opening and decoding a file from its bytes, the way every command reads audio.
// The first byte picks the name's extension (a hint FFmpeg's probing uses), the rest is the file.
// Decoding stops after 20 seconds of audio at 48 kHz, so a small input that claims hours stays fast.
import DecibarAudio

private let extensions = ["wav", "flac", "mp3", "ogg", "opus", "m4a", "aac", "aiff", "caf", "mp4", "mkv", "wv"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    guard size > 1 else { return 0 }
    let name = "input." + extensions[Int(data[0]) % extensions.count]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    guard let decoder = try? AudioFileDecoder(bytes: bytes, name: name) else { return 0 }
    precondition(decoder.channelCount >= 1 && decoder.channelCount <= 8 && decoder.sampleRate > 0)
    precondition(decoder.speakerPositions.count == decoder.channelCount)
    var frames = 0
    let channels = decoder.channelCount
    do {
        while frames < 960_000, try decoder.read({ samples in
            precondition(samples.count % channels == 0)
            frames += samples.count / channels
        }) {}
        // Seeking back and reading a little more must work on anything that decoded.
        if frames > 0 {
            try decoder.seek(toFrame: Int64(frames / 2))
            _ = try decoder.read { samples in precondition(samples.count % channels == 0) }
        }
    } catch {
        // A decoding error is an answer too.
    }
    return 0
}
