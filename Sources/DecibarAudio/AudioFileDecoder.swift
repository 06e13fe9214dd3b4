import CFFmpeg
import DecibarCore
import Glibc

/// Why a file could not be read, in one line a user understands (no FFmpeg jargon beyond the reason).
public struct AudioFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path.escapingControlCharacters): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        // The description is shown as one line, so never let a newline from a C error text through.
        self.reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Streams a file's audio track as interleaved 32-bit float at the file's own rate and channel count.
///
/// This is the only Swift code that talks to FFmpeg's libraries. It reads the file packet by packet,
/// so memory use does not depend on the file's length: one packet, one frame and one output buffer
/// are reused for the whole file, and nothing is sized by what a header claims.
///
/// FFmpeg reads through `AudioFileInput` (a regular file opened and checked here, or bytes in memory),
/// never by opening names itself: a path is always just a file, and a file cannot make FFmpeg open
/// others (playlists, references), so what is decoded is exactly the bytes named.
///
/// The decoder honours the stream's start padding (AAC priming in MP4/M4A, the MP3 encoder delay from
/// the LAME tag, Opus pre-skip), so a file decodes to the length of its source. libavcodec trims those
/// samples itself because `AV_CODEC_FLAG2_SKIP_MANUAL` is left unset; for MP4/MOV the encoder's end
/// padding is trimmed here from the edit-list duration, which FFmpeg 5.1 does not apply.
///
/// Channel counts above `maxChannels` are down-mixed by swresample with its default matrix, without
/// normalization: levels of the dominant channels are kept, so a loud down-mix can exceed ±1.0.
/// Channels with no names (more than FFmpeg has standard layouts for, such as 32) are folded
/// instead: channel i goes to output channel i mod `maxChannels`, averaged with the others there.
///
/// Not thread-safe: use one instance from one thread at a time.
public final class AudioFileDecoder {
    public let path: String
    public let sampleRate: Int
    /// `min(file channels, maxChannels)`; more channels are down-mixed by swresample.
    public let channelCount: Int
    /// Where each output channel belongs, in order.
    public let speakerPositions: [SpeakerPosition]
    /// From the stream's or container's duration; `nil` if unknown. Exact for most lossless and
    /// MP4/Ogg files, an estimate (from the bit rate or frame count) for MP3 and raw AAC, and only a
    /// claim: a damaged or hostile header can say anything.
    public let estimatedFrameCount: Int64?
    /// The size of the file (or bytes) in bytes.
    public let byteCount: Int64
    public let codecName: String
    /// How the file stores its samples, for writing them back at the same depth: float for float
    /// PCM, else 16, 24 or 32 bits (lossy codecs count as 16).
    public let storedSampleFormat: SampleFormat
    /// Title, artist and album from the file's tags (the container's, or the audio track's).
    public let tags: TrackTags
    /// Frames delivered so far.
    public private(set) var framePosition: Int64 = 0

    let state: DecoderState

    /// Opens `path` and prepares its best audio track for decoding.
    /// - Parameter maxChannels: files with more channels are down-mixed to this many (at least 1).
    public convenience init(path: String, maxChannels: Int = 8) throws(AudioFileError) {
        if let failure = Self.loadLibraries() { throw AudioFileError(path: path, reason: failure) }
        try self.init(input: try AudioFileInput(path: path), name: path, maxChannels: maxChannels)
    }

    /// Decodes audio held in memory; `name` stands for the path in errors and in format probing
    /// (its extension is a hint, as a file's is).
    public convenience init(bytes: [UInt8], name: String, maxChannels: Int = 8) throws(AudioFileError) {
        if let failure = Self.loadLibraries() { throw AudioFileError(path: name, reason: failure) }
        guard !bytes.isEmpty else { throw AudioFileError(path: name, reason: "file is empty") }
        try self.init(input: AudioFileInput(bytes: bytes), name: name, maxChannels: maxChannels)
    }

    /// Decodes a download as it arrives (`name`, its address, stands for the path in errors and
    /// probing). Reads wait for bytes that have not arrived yet.
    public convenience init(source: any AudioByteSource, name: String, maxChannels: Int = 8) throws(AudioFileError) {
        if let failure = Self.loadLibraries() { throw AudioFileError(path: name, reason: failure) }
        try self.init(input: AudioFileInput(source: source), name: name, maxChannels: maxChannels)
    }

    private init(input: AudioFileInput, name path: String, maxChannels: Int) throws(AudioFileError) {
        precondition(maxChannels >= 1, "maxChannels must be at least 1")
        self.path = path
        // Everything FFmpeg allocates goes into `state` at once, so an error thrown half-way
        // through still frees it (the state's deinit runs when it goes out of scope).
        let state = DecoderState(input: input)
        func fail(_ reason: String) -> AudioFileError { AudioFileError(path: path, reason: reason) }

        let format = try state.openFormat(path: path, noun: "an audio file")

        // The best audio track, which also picks the audio of an MP4/MOV that has video.
        let index = ff.av_find_best_stream!(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        guard index >= 0 else {
            // av_find_best_stream also skips audio streams whose rate or channel count could not
            // be worked out, which is what random bytes that happen to look like MP3 give.
            let streams = UnsafeBufferPointer(start: format.pointee.streams, count: Int(format.pointee.nb_streams))
            let hasUnreadableAudio = streams.contains { $0?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }
            throw fail(hasUnreadableAudio || streams.isEmpty ? "not an audio file or unsupported format" : "no audio track")
        }
        state.streamIndex = index
        // Tell the demuxer to skip the other tracks' packets rather than hand them to us.
        for i in 0..<Int(format.pointee.nb_streams) where i != Int(index) {
            format.pointee.streams[i]!.pointee.discard = AVDISCARD_ALL
        }
        let stream = format.pointee.streams[Int(index)]!
        let parameters = stream.pointee.codecpar!
        let name = ff.avcodec_get_name!(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"

        guard let codec = ff.avcodec_find_decoder!(parameters.pointee.codec_id) else {
            throw fail("unsupported audio codec '\(name)'")
        }
        guard let context = ff.avcodec_alloc_context3!(codec) else { throw fail("out of memory") }
        state.codec = context
        let parametersResult = ff.avcodec_parameters_to_context!(context, parameters)
        if parametersResult < 0 {
            throw fail("cannot decode '\(name)' audio: \(Self.errorText(parametersResult))")
        }
        // With the packet time base set, libavcodec can shift timestamps when it drops priming
        // samples; without it the MP3 and Opus decoders warn "Could not update timestamps for
        // skipped samples" and the frame timestamps used for end trimming would be off.
        context.pointee.pkt_timebase = stream.pointee.time_base
        let openCodecResult = ff.avcodec_open2!(context, codec, nil)
        if openCodecResult < 0 {
            throw fail("cannot decode '\(name)' audio: \(Self.errorText(openCodecResult))")
        }

        let rate = Int(context.pointee.sample_rate > 0 ? context.pointee.sample_rate : parameters.pointee.sample_rate)
        let fileChannels = Int(context.pointee.ch_layout.nb_channels > 0
            ? context.pointee.ch_layout.nb_channels : parameters.pointee.ch_layout.nb_channels)
        guard rate > 0, fileChannels > 0 else {
            throw fail("not an audio file or unsupported format (no sample rate or channel count)")
        }

        // Keep the file's own layout (and channel order) when it fits; otherwise the standard
        // layout for `maxChannels`, so swresample builds a down-mix matrix.
        if fileChannels <= maxChannels, Self.isMixable(context.pointee.ch_layout) {
            _ = ff.av_channel_layout_copy!(&state.outputLayout, &context.pointee.ch_layout)
        } else {
            ff.av_channel_layout_default!(&state.outputLayout, Int32(min(fileChannels, maxChannels)))
        }
        state.outputRate = Int32(rate)

        guard let packet = ff.av_packet_alloc!(), let frame = ff.av_frame_alloc!() else { throw fail("out of memory") }
        state.packet = packet
        state.frame = frame

        // MOV/MP4 durations come from the edit list and are sample-exact; FFmpeg 5.1 drops the
        // AAC priming but keeps the encoder's padding at the end, so cut the output there.
        let timeBase = stream.pointee.time_base
        if let formatName = format.pointee.iformat?.pointee.name,
           String(cString: formatName).hasPrefix("mov,"),
           stream.pointee.duration > 0, stream.pointee.duration != Self.noTimestamp {
            let start = stream.pointee.start_time == Self.noTimestamp ? 0 : stream.pointee.start_time
            state.endTimestamp = start + stream.pointee.duration
        }
        state.timeBase = timeBase
        // A fragmented MP4 starts its audio before zero (the AAC priming) and FFmpeg 5.1 does not
        // drop it there as it does for an MP4 with one index: drop what lies before zero here.
        if Self.origin(of: stream, format: format) != stream.pointee.start_time, stream.pointee.start_time != Self.noTimestamp {
            state.startTimestamp = 0
            state.discardBefore = 0
        }

        self.sampleRate = rate
        self.channelCount = Int(state.outputLayout.nb_channels)
        self.speakerPositions = Self.speakerPositions(of: &state.outputLayout)
        self.codecName = name
        let pcmBits = name.hasPrefix("pcm_") ? Int(parameters.pointee.bits_per_coded_sample) : 0
        let depth = max(Int(parameters.pointee.bits_per_raw_sample), pcmBits)
        self.storedSampleFormat = name.hasPrefix("pcm_f") ? .f32 : depth > 24 ? .s32 : depth > 16 ? .s24 : .s16
        self.tags = Self.tags(of: format, stream: stream)
        self.estimatedFrameCount = Self.frameCount(of: stream, in: format, sampleRate: rate)
        self.byteCount = input.size
        self.state = state
    }

    private static func tags(of format: UnsafeMutablePointer<AVFormatContext>, stream: UnsafeMutablePointer<AVStream>) -> TrackTags {
        // Ogg and Opus keep their comments on the stream; most containers on the file.
        func tag(_ key: String) -> String? {
            for dictionary in [format.pointee.metadata, stream.pointee.metadata] {
                if let entry = ff.av_dict_get!(dictionary, key, nil, 0), let value = entry.pointee.value {
                    let text = String(cString: value)
                    if !text.isEmpty { return text }
                }
            }
            return nil
        }
        return TrackTags(title: tag("title"), artist: tag("artist"), album: tag("album"), chapters: chapters(of: format),
                         cover: cover(of: format))
    }

    /// The cover picture a file carries (an "attached picture" stream: ID3's APIC, MP4's covr,
    /// FLAC's PICTURE), as stored; nil without one, or for one over 16 MiB.
    private static func cover(of format: UnsafeMutablePointer<AVFormatContext>) -> (bytes: [UInt8], fileExtension: String)? {
        guard let streams = format.pointee.streams else { return nil }
        for index in 0 ..< Int(format.pointee.nb_streams) {
            guard let stream = streams[index], stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0,
                  let data = stream.pointee.attached_pic.data, stream.pointee.attached_pic.size > 0,
                  stream.pointee.attached_pic.size <= 16 << 20 else { continue }
            let codec = stream.pointee.codecpar.pointee.codec_id
            guard codec == AV_CODEC_ID_MJPEG || codec == AV_CODEC_ID_PNG else { continue }
            return (Array(UnsafeBufferPointer(start: data, count: Int(stream.pointee.attached_pic.size))),
                    codec == AV_CODEC_ID_PNG ? "png" : "jpg")
        }
        return nil
    }

    /// The container's chapters, by start; one without a title is named by its number. (A hostile
    /// file's thousands are cut at 10 000.)
    private static func chapters(of format: UnsafeMutablePointer<AVFormatContext>) -> [Chapter] {
        guard let list = format.pointee.chapters else { return [] }
        var chapters: [Chapter] = []
        for index in 0 ..< Int(min(format.pointee.nb_chapters, 10_000)) {
            guard let chapter = list[index]?.pointee, chapter.time_base.den > 0 else { continue }
            let start = Double(chapter.start) * Double(chapter.time_base.num) / Double(chapter.time_base.den)
            guard start.isFinite, start >= 0 else { continue }
            var title = "Chapter \(index + 1)"
            if let entry = ff.av_dict_get!(chapter.metadata, "title", nil, 0), let value = entry.pointee.value {
                let text = String(cString: value)
                if !text.isEmpty { title = text }
            }
            chapters.append(Chapter(title: title, start: start))
        }
        return chapters.sorted { $0.start < $1.start }
    }

    /// The estimated frame count, bounded by what the file's size could plausibly hold, for sizing
    /// memory ahead: a header that claims billions of frames in a few kilobytes must not decide
    /// how much is reserved. (64 frames a byte is well above any codec's rate for real audio; a
    /// file that beats it only costs some growth later.)
    public var frameCountForReservation: Int64 {
        let bound = byteCount.multipliedReportingOverflow(by: 64)
        return min(estimatedFrameCount ?? 0, bound.overflow ? Int64.max : bound.partialValue)
    }

    /// Decodes the next chunk and passes its interleaved samples (a whole number of frames) to `body`.
    ///
    /// The buffer is only valid during the call. Returns `false` at the end of the file. A bad packet
    /// in the middle is skipped; the call only fails when nothing more can be decoded.
    public func read(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioFileError) -> Bool {
        let s = state
        guard !s.finished, let frame = s.frame else { return false }
        while true {
            let received = try s.receiveFrame(path: path, damaged: { s.lastError = $0 },
                                              demuxFailed: { code throws(AudioFileError) in try shouldRetryAfterDemuxError(code) })
            switch received {
            case .frame:
                let count: Int
                do {
                    defer { ff.av_frame_unref!(frame) }
                    count = try convert(frame)
                }
                if count > 0 { return deliver(count, body) }
            case .drained:
                // A resampler only holds samples back when the rate changed mid-file.
                let count = try flushResampler(at: 0)
                s.finished = true
                if count > 0 { return deliver(count, body) }
                return try finish()
            case .stuck:
                s.finished = true
                return try finish()
            }
        }
    }

    /// Moves to `frame` (clamped at 0) so that the next `read` starts exactly there.
    ///
    /// The demuxer jumps to a point at least half a second earlier (codecs need some run-up), then
    /// decoded frames are placed by their timestamps and everything before `frame` is dropped.
    public func seek(toFrame target: Int64) throws(AudioFileError) {
        let s = state
        guard let format = s.format, let context = s.codec else { return }
        let goal = max(0, target)
        let runUp = Int64(sampleRate / 2)
        let perSample = AVRational(num: 1, den: Int32(sampleRate))
        let stream = format.pointee.streams[Int(s.streamIndex)]!
        let start = Self.origin(of: stream, format: format)
        let timestamp = start + ff.av_rescale_q!(max(0, goal - runUp), perSample, s.timeBase)
        let result = ff.av_seek_frame!(format, s.streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        if result < 0 {
            throw AudioFileError(path: path, reason: "cannot seek: \(Self.errorText(result))")
        }
        ff.avcodec_flush_buffers!(context)
        ff.swr_free!(&s.resampler)
        s.packetPending = false
        s.inputEnded = false
        s.finished = false
        s.startTimestamp = start
        s.discardBefore = goal
        s.hasSought = true
        framePosition = goal
    }

    // MARK: - Private

    /// The timestamp of the file's first frame heard: the stream's start, except that an MP4's
    /// samples before zero are the encoder's priming, which its edit list cuts.
    static func origin(of stream: UnsafeMutablePointer<AVStream>, format: UnsafeMutablePointer<AVFormatContext>) -> Int64 {
        let start = stream.pointee.start_time == noTimestamp ? 0 : stream.pointee.start_time
        guard start < 0, let name = format.pointee.iformat?.pointee.name, String(cString: name).hasPrefix("mov,") else { return start }
        return 0
    }

    private func deliver(_ frames: Int, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        framePosition += Int64(frames)
        body(UnsafeBufferPointer(start: state.output, count: frames * channelCount))
        return true
    }

    /// Called once the decoder is drained: a normal end, unless nothing could be decoded at all.
    private func finish() throws(AudioFileError) -> Bool {
        if let failure = state.pendingFailure { throw failure }
        if framePosition == 0 && !state.hasSought {
            // A header and nothing playable after it (damaged, or cut right after the header).
            if let error = state.lastError {
                throw AudioFileError(path: path, reason: "decoding failed: \(Self.errorText(error))")
            }
            throw AudioFileError(path: path, reason: "no audio could be decoded (the file is damaged or holds no audio)")
        }
        return false
    }

    /// An error after which nothing more can be decoded: later reads return false.
    func fatal(_ reason: String) -> AudioFileError {
        state.finished = true
        return AudioFileError(path: path, reason: reason)
    }

    /// Decides what to do when the demuxer returns an error other than a packet.
    /// Returns true to read again (corrupt container data that the demuxer may step over),
    /// false to treat the input as ended.
    private func shouldRetryAfterDemuxError(_ result: Int32) throws(AudioFileError) -> Bool {
        let s = state
        if result == decibar_averror_eof() { return false }
        s.lastError = result
        guard let io = s.format?.pointee.pb else { return false }
        if io.pointee.error != 0 {
            // A real read error: deliver what the decoder still holds, then fail.
            let reason = s.input.sourceFailure ?? (io.pointee.error == decibar_averror_exit() ? "cancelled" : "read error: \(Self.errorText(io.pointee.error))")
            s.pendingFailure = AudioFileError(path: path, reason: reason)
            return false
        }
        // Retry only while the demuxer keeps moving forward through the file, and not forever.
        let position = ff.avio_seek!(io, 0, SEEK_CUR)
        s.demuxErrors += 1
        if io.pointee.eof_reached != 0 || position <= s.lastDemuxErrorPosition || s.demuxErrors > 1000 {
            return false
        }
        s.lastDemuxErrorPosition = position
        return true
    }

    private static func frameCount(of stream: UnsafeMutablePointer<AVStream>,
                                   in format: UnsafeMutablePointer<AVFormatContext>, sampleRate: Int) -> Int64? {
        let perSample = AVRational(num: 1, den: Int32(sampleRate))
        let frames: Int64
        if stream.pointee.duration > 0, stream.pointee.duration != noTimestamp {
            frames = ff.av_rescale_q!(stream.pointee.duration, stream.pointee.time_base, perSample)
        } else if format.pointee.duration > 0, format.pointee.duration != noTimestamp {
            frames = ff.av_rescale_q!(format.pointee.duration, AVRational(num: 1, den: AV_TIME_BASE), perSample)
        } else {
            return nil
        }
        // Ogg counts the Opus pre-skip in its duration, and the decoder drops those samples.
        // (MP4 sets the same field, but its edit-list duration already excludes them.)
        if let name = format.pointee.iformat?.pointee.name, String(cString: name) == "ogg" {
            return max(0, frames - Int64(max(0, stream.pointee.codecpar.pointee.initial_padding)))
        }
        return frames
    }

    /// Loads FFmpeg's libraries if that has not happened yet; returns why it failed, or nil.
    /// Call it early on a spare thread to take the ~45 ms of loading off a later `init`.
    @discardableResult
    public static func loadLibraries() -> String? {
        FFmpegLibraries.shared.failure
    }

    static let noTimestamp = FFmpegLibraries.noTimestamp

    static func errorText(_ code: Int32) -> String { FFmpegLibraries.errorText(code) }
}
