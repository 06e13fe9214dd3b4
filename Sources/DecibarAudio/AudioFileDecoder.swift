import CFFmpeg
import Glibc

/// Why a file could not be read, in one line a user understands (no FFmpeg jargon beyond the reason).
public struct AudioFileError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }

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
/// are reused for the whole file.
///
/// The decoder honours the stream's start padding (AAC priming in MP4/M4A, the MP3 encoder delay from
/// the LAME tag, Opus pre-skip), so a file decodes to the length of its source. libavcodec trims those
/// samples itself because `AV_CODEC_FLAG2_SKIP_MANUAL` is left unset; for MP4/MOV the encoder's end
/// padding is trimmed here from the edit-list duration, which FFmpeg 5.1 does not apply.
///
/// Channel counts above `maxChannels` are down-mixed by swresample with its default matrix, without
/// normalisation: levels of the dominant channels are kept, so a loud down-mix can exceed ±1.0.
///
/// Not thread-safe: use one instance from one thread at a time.
/// FFmpeg's functions, once loaded (see CFFmpeg.h for why they are not linked directly).
private struct FFmpegLibraries: @unchecked Sendable {
    /// Written once by the loader, read-only after.
    let table: DecibarFFmpeg?
    let failure: String?

    static let shared: FFmpegLibraries = {
        var message = [CChar](repeating: 0, count: 256)
        if let table = decibar_ffmpeg_load(&message, Int32(message.count)) {
            return FFmpegLibraries(table: table.pointee, failure: nil)
        }
        return FFmpegLibraries(table: nil, failure: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }()
}

/// The loaded functions; only reached after `loadLibraries()` succeeded.
private var ff: DecibarFFmpeg { FFmpegLibraries.shared.table! }

public final class AudioFileDecoder {
    public let path: String
    public let sampleRate: Int
    /// `min(file channels, maxChannels)`; more channels are down-mixed by swresample.
    public let channelCount: Int
    /// From the stream's or container's duration; `nil` if unknown. Exact for most lossless and
    /// MP4/Ogg files, an estimate (from the bit rate or frame count) for MP3 and raw AAC.
    public let estimatedFrameCount: Int64?
    public let codecName: String
    /// Frames delivered so far.
    public private(set) var framePosition: Int64 = 0

    private let state: DecoderState

    /// Opens `path` and prepares its best audio track for decoding.
    /// - Parameter maxChannels: files with more channels are down-mixed to this many (at least 1).
    public init(path: String, maxChannels: Int = 8) throws(AudioFileError) {
        precondition(maxChannels >= 1, "maxChannels must be at least 1")
        if let failure = Self.loadLibraries() { throw AudioFileError(path: path, reason: failure) }
        AudioFileDecoder.silenceLibraryLogging
        self.path = path

        // Check the file ourselves first: FFmpeg reports an empty file as "invalid data", which
        // would hide the real reason.
        var info = stat()
        if stat(path, &info) != 0 {
            throw AudioFileError(path: path, reason: Self.reason(forErrno: errno))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw AudioFileError(path: path, reason: "is a directory")
        }
        if (info.st_mode & S_IFMT) == S_IFREG, info.st_size == 0 {
            throw AudioFileError(path: path, reason: "file is empty")
        }

        // Everything FFmpeg allocates goes into `state` at once, so an error thrown half-way
        // through still frees it (the state's deinit runs when it goes out of scope).
        let state = DecoderState()
        func fail(_ reason: String) -> AudioFileError { AudioFileError(path: path, reason: reason) }

        var format: UnsafeMutablePointer<AVFormatContext>?
        let openResult = ff.avformat_open_input!(&format, path, nil, nil)
        guard openResult >= 0, let format else {
            switch openResult {
            case -ENOENT, -EACCES, -EPERM, -EISDIR, -ELOOP, -ENOTDIR:
                throw fail(Self.reason(forErrno: -openResult))
            case decibar_averror_eof():
                // The header promised more than the file holds.
                throw fail("file is truncated or not an audio file")
            default:
                throw fail("not an audio file or unsupported format")
            }
        }
        state.format = format

        // Needed for formats without a header (raw AAC, MP3 without a Xing tag) to learn the
        // sample rate and channel layout; it reads (and decodes) only the first few packets.
        let infoResult = ff.avformat_find_stream_info!(format, nil)
        if infoResult == decibar_averror_eof() {
            throw fail("file is truncated or not an audio file")
        }
        if infoResult < 0 {
            throw fail("not an audio file or unsupported format (\(Self.errorText(infoResult)))")
        }

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

        self.sampleRate = rate
        self.channelCount = Int(state.outputLayout.nb_channels)
        self.codecName = name
        self.estimatedFrameCount = Self.frameCount(of: stream, in: format, sampleRate: rate)
        self.state = state
    }

    /// Decodes the next chunk and passes its interleaved samples (a whole number of frames) to `body`.
    ///
    /// The buffer is only valid during the call. Returns `false` at the end of the file. A bad packet
    /// in the middle is skipped; the call only fails when nothing more can be decoded.
    public func read(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioFileError) -> Bool {
        let s = state
        guard !s.finished, let context = s.codec, let packet = s.packet, let frame = s.frame else { return false }
        let eagain = decibar_averror_eagain()
        let eof = decibar_averror_eof()
        // Guards against a decoder that neither accepts input nor produces output.
        var stalls = 0

        while true {
            let received = ff.avcodec_receive_frame!(context, frame)
            if received == 0 {
                let count: Int
                do {
                    defer { ff.av_frame_unref!(frame) }
                    count = try convert(frame)
                }
                if count > 0 { return deliver(count, body) }
                continue
            }
            if received == eof {
                // Fully drained. A resampler only holds samples back when the rate changed mid-file.
                let count = try flushResampler(at: 0)
                s.finished = true
                if count > 0 { return deliver(count, body) }
                return try finish()
            }
            if received != eagain {
                // Some decoders report a bad packet here rather than from send: skip it. While
                // draining, keep asking for the frames still inside; before that, feed more input.
                s.lastError = received
                stalls += 1
                if s.inputEnded, stalls <= 64 { continue }
                if stalls > 64, !s.inputEnded { throw fatal("decoding failed: \(Self.errorText(received))") }
            }

            if s.inputEnded {
                // The flush packet was sent, yet the decoder asks for more (or keeps failing):
                // nothing more will come out of it.
                s.finished = true
                return try finish()
            }
            if !s.packetPending {
                let result = ff.av_read_frame!(s.format, packet)
                if result < 0 {
                    if try shouldRetryAfterDemuxError(result) { continue }
                    // End of input: an empty packet puts the decoder into draining mode.
                    s.inputEnded = true
                    _ = ff.avcodec_send_packet!(context, nil)
                    continue
                }
                s.demuxErrors = 0
                if packet.pointee.stream_index != s.streamIndex {
                    ff.av_packet_unref!(packet)
                    continue
                }
            }
            let sent = ff.avcodec_send_packet!(context, packet)
            if sent == eagain {
                // Its output queue is full: keep the packet and receive first.
                s.packetPending = true
                stalls += 1
                if stalls > 64 { throw fatal("decoding failed: the decoder stopped making progress") }
                continue
            }
            s.packetPending = false
            ff.av_packet_unref!(packet)
            if sent < 0 {
                // Corrupt data: drop this packet and carry on with the next one.
                s.lastError = sent
            } else {
                stalls = 0
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
        let start = stream.pointee.start_time == Self.noTimestamp ? 0 : stream.pointee.start_time
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
        framePosition = goal
    }

    // MARK: - Private

    private func deliver(_ frames: Int, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Bool {
        framePosition += Int64(frames)
        body(UnsafeBufferPointer(start: state.output, count: frames * channelCount))
        return true
    }

    /// Called once the decoder is drained: a normal end, unless nothing could be decoded at all.
    private func finish() throws(AudioFileError) -> Bool {
        if let failure = state.pendingFailure { throw failure }
        if framePosition == 0, let error = state.lastError {
            throw AudioFileError(path: path, reason: "decoding failed: \(Self.errorText(error))")
        }
        return false
    }

    /// An error after which nothing more can be decoded: later reads return false.
    private func fatal(_ reason: String) -> AudioFileError {
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
            s.pendingFailure = AudioFileError(path: path, reason: "read error: \(Self.errorText(io.pointee.error))")
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

    /// Converts a decoded frame into `state.output`; returns the number of frames written.
    private func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(AudioFileError) -> Int {
        let s = state
        var inputFrames = Int(frame.pointee.nb_samples)
        guard inputFrames > 0 else { return 0 }

        // Trim the encoder padding past the container's end (MOV/MP4 only, see init).
        let timestamp = frame.pointee.pts != Self.noTimestamp ? frame.pointee.pts : frame.pointee.best_effort_timestamp
        if let end = s.endTimestamp, timestamp != Self.noTimestamp, frame.pointee.sample_rate > 0 {
            let remaining = ff.av_rescale_q!(end - timestamp, s.timeBase,
                                         AVRational(num: 1, den: frame.pointee.sample_rate))
            inputFrames = Int(max(0, min(Int64(inputFrames), remaining)))
            if inputFrames == 0 { return 0 }
        }

        // After a seek: place this frame by its timestamp and drop what lies before the target.
        var skip = 0
        if let goal = s.discardBefore {
            if timestamp != Self.noTimestamp, frame.pointee.sample_rate > 0 {
                let position = ff.av_rescale_q!(timestamp - s.startTimestamp, s.timeBase,
                                            AVRational(num: 1, den: frame.pointee.sample_rate))
                if position + Int64(inputFrames) <= goal { return 0 }
                skip = Int(max(0, goal - position))
            }
            s.discardBefore = nil
        }

        var written = 0
        if s.needsNewResampler(for: frame) {
            // The stream changed format mid-file (or this is the first frame): keep what the old
            // resampler still holds, then build one for the new input.
            written = try flushResampler(at: 0)
            try makeResampler(for: frame)
        }
        let capacity = written + Int(ff.swr_get_out_samples!(s.resampler, Int32(inputFrames)))
        s.reserve(frames: capacity, channels: channelCount, keeping: written)

        // One data pointer per channel for planar formats, one in all for interleaved ones.
        let planes = max(1, Int(frame.pointee.ch_layout.nb_channels))
        let converted = frame.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: planes) { input in
            var outputPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(s.output! + written * channelCount)
                .assumingMemoryBound(to: UInt8.self)
            return ff.swr_convert!(s.resampler, &outputPlane, Int32(capacity - written), input, Int32(inputFrames))
        }
        if converted < 0 {
            throw fatal("decoding failed: cannot convert samples (\(Self.errorText(converted)))")
        }
        let total = written + Int(converted)
        // The output rate is the file's own, so input and output frames line up one to one.
        let dropped = min(skip, total)
        if dropped > 0, let output = s.output {
            output.update(from: output + dropped * channelCount, count: (total - dropped) * channelCount)
        }
        return total - dropped
    }

    /// Writes the samples the resampler still holds at frame `offset` of `state.output`.
    private func flushResampler(at offset: Int) throws(AudioFileError) -> Int {
        let s = state
        guard let resampler = s.resampler else { return 0 }
        let pending = Int(ff.swr_get_out_samples!(resampler, 0))
        guard pending > 0 else { return 0 }
        s.reserve(frames: offset + pending, channels: channelCount, keeping: offset)
        var outputPlane: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(s.output! + offset * channelCount)
            .assumingMemoryBound(to: UInt8.self)
        let flushed = ff.swr_convert!(resampler, &outputPlane, Int32(pending), nil, 0)
        if flushed < 0 {
            throw fatal("decoding failed: cannot convert samples (\(Self.errorText(flushed)))")
        }
        return Int(flushed)
    }

    private func makeResampler(for frame: UnsafeMutablePointer<AVFrame>) throws(AudioFileError) {
        let s = state
        ff.swr_free!(&s.resampler)
        var inputLayout = AVChannelLayout()
        defer { ff.av_channel_layout_uninit!(&inputLayout) }
        if Self.isMixable(frame.pointee.ch_layout) {
            _ = ff.av_channel_layout_copy!(&inputLayout, &frame.pointee.ch_layout)
        } else {
            // Unknown channel order (e.g. WAV without a channel mask): assume the standard one.
            ff.av_channel_layout_default!(&inputLayout, frame.pointee.ch_layout.nb_channels)
        }
        let inputFormat = AVSampleFormat(rawValue: frame.pointee.format)
        var result = ff.swr_alloc_set_opts2!(&s.resampler, &s.outputLayout, AV_SAMPLE_FMT_FLT, s.outputRate,
                                         &inputLayout, inputFormat, frame.pointee.sample_rate, 0, nil)
        if result >= 0 { result = ff.swr_init!(s.resampler) }
        if result < 0 {
            ff.swr_free!(&s.resampler)
            throw fatal("decoding failed: cannot convert samples (\(Self.errorText(result)))")
        }
        ff.av_channel_layout_uninit!(&s.inputLayout)
        _ = ff.av_channel_layout_copy!(&s.inputLayout, &frame.pointee.ch_layout)
        s.inputFormat = frame.pointee.format
        s.inputRate = frame.pointee.sample_rate
    }

    /// swresample can only mix layouts whose channels it knows by name.
    private static func isMixable(_ layout: AVChannelLayout) -> Bool {
        layout.nb_channels > 0 && (layout.order == AV_CHANNEL_ORDER_NATIVE || layout.order == AV_CHANNEL_ORDER_CUSTOM)
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

    /// `AV_NOPTS_VALUE` is a cast macro that does not import.
    private static let noTimestamp = Int64.min

    /// FFmpeg logs to stderr by default (for example "Could not update timestamps for skipped
    /// samples", or one line per corrupt packet). Failures reach callers as `AudioFileError`, so the
    /// library stays quiet. The level is process-wide; a `static let` sets it once, thread-safely.
    private static let silenceLibraryLogging: Void = ff.av_log_set_level!(AV_LOG_QUIET)

    private static func errorText(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
            if ff.av_strerror!(code, buffer.baseAddress, buffer.count) < 0 { return "error \(code)" }
            return String(cString: buffer.baseAddress!)
        }
    }

    private static func reason(forErrno code: Int32) -> String {
        switch code {
        case ENOENT, ENOTDIR: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory"
        case ELOOP: return "too many symbolic links"
        default: return String(cString: strerror(code))
        }
    }
}

/// Owns every FFmpeg object of one decoder and frees them in its deinit, including when
/// `AudioFileDecoder.init` throws half-way.
private final class DecoderState {
    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    var resampler: OpaquePointer?
    var streamIndex: Int32 = -1
    var timeBase = AVRational(num: 1, den: 1)
    var endTimestamp: Int64?

    var outputLayout = AVChannelLayout()
    var outputRate: Int32 = 0
    // What the resampler was built for.
    var inputLayout = AVChannelLayout()
    var inputFormat: Int32 = -1
    var inputRate: Int32 = 0

    /// Interleaved output, grown only when a frame is larger than any before.
    var output: UnsafeMutablePointer<Float>?
    var outputCapacity = 0   // in samples

    /// After a seek: output before this frame is dropped (nil when not seeking).
    var discardBefore: Int64?
    var startTimestamp: Int64 = 0

    var packetPending = false
    var inputEnded = false
    var finished = false
    var lastError: Int32?
    var pendingFailure: AudioFileError?
    var demuxErrors = 0
    var lastDemuxErrorPosition: Int64 = -1

    func needsNewResampler(for frame: UnsafeMutablePointer<AVFrame>) -> Bool {
        resampler == nil
            || frame.pointee.format != inputFormat
            || frame.pointee.sample_rate != inputRate
            || ff.av_channel_layout_compare!(&frame.pointee.ch_layout, &inputLayout) != 0
    }

    /// Makes room for `frames` frames, keeping the first `kept` frames already written.
    func reserve(frames: Int, channels: Int, keeping kept: Int = 0) {
        let needed = frames * channels
        guard needed > outputCapacity else { return }
        let grown = UnsafeMutablePointer<Float>.allocate(capacity: needed)
        if let output, kept > 0 { grown.initialize(from: output, count: kept * channels) }
        output?.deallocate()
        output = grown
        outputCapacity = needed
    }

    deinit {
        output?.deallocate()
        ff.swr_free!(&resampler)
        ff.av_frame_free!(&frame)
        ff.av_packet_free!(&packet)
        ff.avcodec_free_context!(&codec)
        ff.avformat_close_input!(&format)
        ff.av_channel_layout_uninit!(&outputLayout)
        ff.av_channel_layout_uninit!(&inputLayout)
    }
}
