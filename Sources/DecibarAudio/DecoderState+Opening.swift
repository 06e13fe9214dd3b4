import CFFmpeg
import Glibc

extension DecoderState {
    /// What a decoder calls its file in messages: "an audio file", "a media file".
    typealias FileNoun = String

    /// Opens the container through the state's input and reads its stream information; every
    /// failure is one sentence (a download's own reason first, cancelled, truncated, unreadable).
    /// Shared by the audio and the video decoder, so both refuse the same things the same way.
    func openFormat(path: String, noun: FileNoun) throws(AudioFileError) -> UnsafeMutablePointer<AVFormatContext> {
        func fail(_ reason: String) -> AudioFileError { AudioFileError(path: path, reason: reason) }
        guard let io = input.makeIOContext() else { throw fail("out of memory") }
        self.io = io
        guard let allocated = ff.avformat_alloc_context!() else { throw fail("out of memory") }
        allocated.pointee.pb = io
        allocated.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        // A download seeks by the file's index or its bit rate: the exact way (MP3's) reads every
        // byte up to the target, which has not arrived.
        if input.isDownload { allocated.pointee.flags |= AVFMT_FLAG_FAST_SEEK }
        // A file's own bytes only: demuxers that would open other files or URLs named inside it
        // (playlists, references) are refused.
        allocated.pointee.io_open = { _, _, _, _, _ in decibar_averror(EPERM) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = allocated
        // On failure FFmpeg frees the context (but not our I/O context, which the state owns).
        let openResult = ff.avformat_open_input!(&opened, path, nil, nil)
        guard openResult >= 0, let opened else {
            if let reason = input.sourceFailure { throw fail(reason) }
            if openResult == decibar_averror_exit() { throw fail("cancelled") }
            switch openResult {
            case decibar_averror_eof():
                // The header promised more than the file holds.
                throw fail("file is truncated or not \(noun)")
            case decibar_averror(EIO), decibar_averror(EACCES), decibar_averror(ENOENT):
                throw fail("read error: \(FFmpegLibraries.errorText(openResult))")
            default:
                throw fail("not \(noun) or unsupported format")
            }
        }
        format = opened

        // Needed for formats without a header (raw AAC, MP3 without a Xing tag) to learn the
        // sample rate and channel layout; it reads (and decodes) only the first few packets.
        let infoResult = ff.avformat_find_stream_info!(opened, nil)
        if let reason = input.sourceFailure { throw fail(reason) }
        if infoResult == decibar_averror_eof() { throw fail("file is truncated or not \(noun)") }
        if infoResult < 0 { throw fail("not \(noun) or unsupported format (\(FFmpegLibraries.errorText(infoResult)))") }
        return opened
    }
}
