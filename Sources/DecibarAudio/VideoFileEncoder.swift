import CFFmpeg
import DecibarCore

/// Why a video could not be written: one line, FFmpeg's own text where it has one.
public struct VideoEncoderError: Error, CustomStringConvertible, Sendable {
    public let reason: String
    public var description: String { reason }

    init(_ reason: String) {
        self.reason = reason.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

/// Writes an MP4 in this process: H.264 (libx264) from NV12 frames and AAC from the samples the
/// render already decoded, muxed by libavformat. No ffmpeg program, no pipe, no second decoding.
///
/// The render calls this on a thread of its own, so drawing goes on while x264 works. x264 has two
/// frame threads: on two cores, 1080p took 20 % longer with one (and 50 MB less), and as long with
/// x264's own choice (three, and 25 MB more).
///
/// The picture is encoded a multiple of 128 pixels wide, the columns past `width` cropped off in
/// the stream's header (x264's `crop-rect`): Debian 12's libx264 reads memory it has not written
/// (its vector code for the macroblock tree runs past rows of other lengths), so other widths
/// encode the same frames to other bytes when the heap held something else (320x180: 250 of 300
/// frames differed between `MALLOC_PERTURB_` 85 and none). Padded, a render is the same every time.
///
/// Not thread-safe: use one instance from one thread at a time.
public final class VideoFileEncoder {
    public struct Settings: Sendable {
        public var width: Int
        public var height: Int
        public var fps: Int
        /// x264's preset, constant rate factor and frame threads (0 for x264's own choice).
        /// veryfast at crf 20: flat colors and gradients keep their edges; crf 23 took as long.
        public var preset = "veryfast"
        public var crf = 20
        public var threads = 2
        /// The decoded audio: its rate and channel count (interleaved float), or 0 channels for none.
        public var audioSampleRate: Int
        public var audioChannelCount: Int
        /// Source frames of audio kept at most: the video's length; later samples are dropped.
        public var audioFrameLimit: Int64
        public var audioBitRate = 192_000
        /// Written in fragments (an index every few seconds) rather than with one index first.
        /// One index first plays everywhere and while it downloads, but the muxer holds it until the end,
        /// 48 bytes a packet: 27 MB over two hours at 30 fps. Fragments keep memory flat.
        public var fragmented = false

        public init(width: Int, height: Int, fps: Int, audioSampleRate: Int, audioChannelCount: Int, audioFrameLimit: Int64) {
            self.width = width
            self.height = height
            self.fps = fps
            self.audioSampleRate = audioSampleRate
            self.audioChannelCount = audioChannelCount
            self.audioFrameLimit = audioFrameLimit
        }
    }

    /// The rates AAC has a code for; others are resampled to 48 kHz.
    static let aacRates: Set<Int> = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000]

    private let settings: Settings
    /// The width x264 encodes: `width` rounded up to a multiple of 128.
    private let codedWidth: Int
    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var video: UnsafeMutablePointer<AVCodecContext>?
    private var videoStream: UnsafeMutablePointer<AVStream>?
    private var videoFrame: UnsafeMutablePointer<AVFrame>?
    private var audio: UnsafeMutablePointer<AVCodecContext>?
    private var audioStream: UnsafeMutablePointer<AVStream>?
    private var audioFrame: UnsafeMutablePointer<AVFrame>?
    private var resampler: OpaquePointer?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private var headerWritten = false
    private var finished = false
    private var framesWritten: Int64 = 0
    /// Source audio frames taken, samples in the AAC frame being filled, and AAC samples sent.
    private var audioTaken: Int64 = 0
    private var audioFilled = 0
    private var audioSent: Int64 = 0

    /// Creates `path` (any existing file is replaced) and writes the MP4 header.
    public init(path: String, settings: Settings) throws(VideoEncoderError) {
        if let failure = AudioFileDecoder.loadLibraries() { throw VideoEncoderError(failure) }
        self.settings = settings
        codedWidth = (settings.width + 127) / 128 * 128
        // Through the file protocol, so a name is never read as another protocol.
        let url = "file:" + path
        guard ff.avformat_alloc_output_context2!(&format, nil, "mp4", url) >= 0, let format else {
            throw VideoEncoderError("cannot make an MP4 muxer")
        }
        guard let packet = ff.av_packet_alloc!() else { throw VideoEncoderError("out of memory") }
        self.packet = packet
        try openVideo(format)
        if settings.audioChannelCount > 0 && settings.audioSampleRate > 0 { try openAudio(format) }
        let opened = ff.avio_open!(&format.pointee.pb, url, AVIO_FLAG_WRITE)
        guard opened >= 0 else { throw VideoEncoderError(Self.text(opened)) }
        // Fragments need `delay_moov`: without it FFmpeg 5.1 writes no edit lists, and the picture
        // starts two frames late (x264's B-frame delay) and the sound 1024 samples late (AAC's priming).
        var options: OpaquePointer?
        defer { ff.av_dict_free!(&options) }
        _ = ff.av_dict_set!(&options, "movflags", settings.fragmented ? "+frag_keyframe+empty_moov+delay_moov" : "+faststart", 0)
        let header = ff.avformat_write_header!(format, &options)
        guard header >= 0 else { throw VideoEncoderError(Self.text(header)) }
        headerWritten = true
    }

    private func openVideo(_ format: UnsafeMutablePointer<AVFormatContext>) throws(VideoEncoderError) {
        guard let codec = ff.avcodec_find_encoder_by_name!("libx264") else {
            throw VideoEncoderError("this FFmpeg has no H.264 encoder (libx264)")
        }
        guard let context = ff.avcodec_alloc_context3!(codec), let stream = ff.avformat_new_stream!(format, nil),
              let frame = ff.av_frame_alloc!() else { throw VideoEncoderError("out of memory") }
        video = context
        videoStream = stream
        videoFrame = frame
        context.pointee.width = Int32(codedWidth)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_NV12
        context.pointee.time_base = AVRational(num: 1, den: Int32(settings.fps))
        context.pointee.framerate = AVRational(num: Int32(settings.fps), den: 1)
        context.pointee.thread_count = Int32(settings.threads)
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        var options: OpaquePointer?
        defer { ff.av_dict_free!(&options) }
        _ = ff.av_dict_set!(&options, "preset", settings.preset, 0)
        _ = ff.av_dict_set!(&options, "crf", String(settings.crf), 0)
        // One frame buffered for the lookahead thread, not x264's own four: the same bytes, 19 MB less
        // at 1080p. With none (sync-lookahead=0) it was 10 MB less again but 15 % slower.
        var x264Parameters = ["sync-lookahead=1"]
        if codedWidth > settings.width { x264Parameters.append("crop-rect=0,0,\(codedWidth - settings.width),0") }
        _ = ff.av_dict_set!(&options, "x264-params", x264Parameters.joined(separator: ":"), 0)
        let opened = ff.avcodec_open2!(context, codec, &options)
        guard opened >= 0 else { throw VideoEncoderError("cannot start the H.264 encoder: \(Self.text(opened))") }
        _ = ff.avcodec_parameters_from_context!(stream.pointee.codecpar, context)
        // The size shown is the picture's, not the coded one.
        stream.pointee.codecpar.pointee.width = Int32(settings.width)
        stream.pointee.time_base = context.pointee.time_base
        frame.pointee.format = AV_PIX_FMT_NV12.rawValue
        frame.pointee.width = context.pointee.width
        frame.pointee.height = context.pointee.height
        guard ff.av_frame_get_buffer!(frame, 0) >= 0 else { throw VideoEncoderError("out of memory") }
    }

    private func openAudio(_ format: UnsafeMutablePointer<AVFormatContext>) throws(VideoEncoderError) {
        guard let codec = ff.avcodec_find_encoder_by_name!("aac") else { throw VideoEncoderError("this FFmpeg has no AAC encoder") }
        guard let context = ff.avcodec_alloc_context3!(codec), let stream = ff.avformat_new_stream!(format, nil),
              let frame = ff.av_frame_alloc!() else { throw VideoEncoderError("out of memory") }
        audio = context
        audioStream = stream
        audioFrame = frame
        let rate = Self.aacRates.contains(settings.audioSampleRate) ? settings.audioSampleRate : 48000
        // Mono stays mono; anything wider is mixed to stereo, which every player takes.
        ff.av_channel_layout_default!(&context.pointee.ch_layout, settings.audioChannelCount == 1 ? 1 : 2)
        context.pointee.sample_rate = Int32(rate)
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.bit_rate = Int64(settings.audioBitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(rate))
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            context.pointee.flags |= Int32(AV_CODEC_FLAG_GLOBAL_HEADER)
        }
        // The fast coder: FFmpeg's default (two-loop) search took 4 s of a core for a minute of
        // stereo, a tenth of a 1080p render's work, for no difference heard at 192 kb/s.
        var options: OpaquePointer?
        defer { ff.av_dict_free!(&options) }
        _ = ff.av_dict_set!(&options, "aac_coder", "fast", 0)
        let opened = ff.avcodec_open2!(context, codec, &options)
        guard opened >= 0 else { throw VideoEncoderError("cannot start the AAC encoder: \(Self.text(opened))") }
        _ = ff.avcodec_parameters_from_context!(stream.pointee.codecpar, context)
        stream.pointee.time_base = context.pointee.time_base

        var input = AVChannelLayout()
        ff.av_channel_layout_default!(&input, Int32(settings.audioChannelCount))
        defer { ff.av_channel_layout_uninit!(&input) }
        var made = ff.swr_alloc_set_opts2!(&resampler, &context.pointee.ch_layout, AV_SAMPLE_FMT_FLTP, Int32(rate),
                                           &input, AV_SAMPLE_FMT_FLT, Int32(settings.audioSampleRate), 0, nil)
        if made >= 0 { made = ff.swr_init!(resampler) }
        guard made >= 0 else { throw VideoEncoderError("cannot convert the audio for AAC: \(Self.text(made))") }

        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(rate)
        frame.pointee.nb_samples = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
        _ = ff.av_channel_layout_copy!(&frame.pointee.ch_layout, &context.pointee.ch_layout)
        guard ff.av_frame_get_buffer!(frame, 0) >= 0 else { throw VideoEncoderError("out of memory") }
    }

    /// Encodes the next frame: NV12 (`width`x`height`, luma then interleaved chroma, top row first).
    public func writeVideo(nv12 bytes: UnsafeRawBufferPointer) throws(VideoEncoderError) {
        guard let video, let frame = videoFrame else { return }
        let width = settings.width, height = settings.height
        precondition(bytes.count >= width * height * 3 / 2)
        try check(ff.av_frame_make_writable!(frame))
        // Row by row: the frame's rows may be padded for the encoder's vector loads.
        let source = bytes.baseAddress!
        // Luma, then chroma; the padding columns are black (luma 16, both chroma 128).
        let planes = [(frame.pointee.data.0!, Int(frame.pointee.linesize.0), height, 0, UInt8(16)),
                      (frame.pointee.data.1!, Int(frame.pointee.linesize.1), height / 2, width * height, UInt8(128))]
        for (target, lineSize, rows, offset, black) in planes {
            for row in 0 ..< rows {
                let line = target + row * lineSize
                line.update(from: source.advanced(by: offset + row * width).assumingMemoryBound(to: UInt8.self), count: width)
                (line + width).update(repeating: black, count: codedWidth - width)
            }
        }
        frame.pointee.pts = framesWritten
        framesWritten += 1
        try check(ff.avcodec_send_frame!(video, frame))
        try drain(video, stream: videoStream!)
    }

    /// Adds interleaved samples at the settings' rate and channel count; those past
    /// `audioFrameLimit` are dropped.
    public func writeAudio(_ samples: UnsafeBufferPointer<Float>) throws(VideoEncoderError) {
        guard audio != nil, let resampler else { return }
        let channels = settings.audioChannelCount
        let frames = Int(min(Int64(samples.count / channels), max(0, settings.audioFrameLimit - audioTaken)))
        guard frames > 0 else { return }
        audioTaken += Int64(frames)
        // Taken in by the resampler (which keeps what it cannot hand out yet), then drawn out a frame at a time.
        var input: UnsafePointer<UInt8>? = UnsafeRawPointer(samples.baseAddress!).assumingMemoryBound(to: UInt8.self)
        let taken = withUnsafeMutablePointer(to: &input) { pointer in
            pointer.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 1) { ff.swr_convert!(resampler, nil, 0, $0, Int32(frames)) }
        }
        try check(taken)
        try drawAudio(flushing: false)
    }

    /// Moves what the resampler holds into AAC frames, sending each as it fills; `flushing` also
    /// sends the last, shorter one.
    private func drawAudio(flushing: Bool) throws(VideoEncoderError) {
        guard let audio, let frame = audioFrame, let resampler else { return }
        let size = Int(audio.pointee.frame_size > 0 ? audio.pointee.frame_size : 1024)
        let channels = Int(frame.pointee.ch_layout.nb_channels)
        while true {
            if audioFilled == 0 { try check(ff.av_frame_make_writable!(frame)) }
            var planes = (0 ..< channels).map { channel -> UnsafeMutablePointer<UInt8>? in
                Self.plane(of: frame, channel)! + audioFilled * MemoryLayout<Float>.size
            }
            // No input is a flush to swresample (its filter's tail): only at the very end.
            let got = planes.withUnsafeMutableBufferPointer { pointers in
                if flushing { return ff.swr_convert!(resampler, pointers.baseAddress, Int32(size - audioFilled), nil, 0) }
                var nothing: Float = 0
                return withUnsafeMutablePointer(to: &nothing) { empty in
                    var input: UnsafePointer<UInt8>? = UnsafeRawPointer(empty).assumingMemoryBound(to: UInt8.self)
                    return withUnsafeMutablePointer(to: &input) { ff.swr_convert!(resampler, pointers.baseAddress, Int32(size - audioFilled), $0, 0) }
                }
            }
            try check(got)
            audioFilled += Int(got)
            if audioFilled == size {
                try sendAudioFrame(samples: size)
            } else if got == 0 {
                break
            }
        }
        if flushing && audioFilled > 0 { try sendAudioFrame(samples: audioFilled) }
    }

    private func sendAudioFrame(samples: Int) throws(VideoEncoderError) {
        guard let audio, let frame = audioFrame else { return }
        frame.pointee.nb_samples = Int32(samples)
        frame.pointee.pts = audioSent
        audioSent += Int64(samples)
        audioFilled = 0
        try check(ff.avcodec_send_frame!(audio, frame))
        try drain(audio, stream: audioStream!)
    }

    private static func plane(of frame: UnsafeMutablePointer<AVFrame>, _ channel: Int) -> UnsafeMutablePointer<UInt8>? {
        frame.pointee.extended_data[channel]
    }

    /// Hands every packet the encoder has ready to the muxer.
    private func drain(_ codec: UnsafeMutablePointer<AVCodecContext>, stream: UnsafeMutablePointer<AVStream>) throws(VideoEncoderError) {
        guard let format, let packet else { return }
        while true {
            let received = ff.avcodec_receive_packet!(codec, packet)
            if received == decibar_averror_eagain() || received == decibar_averror_eof() { return }
            try check(received)
            // x264 leaves a frame's duration out; without it the last frame would not count in the video's length.
            if codec == video && packet.pointee.duration == 0 { packet.pointee.duration = 1 }
            ff.av_packet_rescale_ts!(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            try check(ff.av_interleaved_write_frame!(format, packet))
        }
    }

    /// Ends both streams and writes the index (then moved to the front of the file).
    public func finish() throws(VideoEncoderError) {
        guard !finished, let format else { return }
        finished = true
        if let video {
            try check(ff.avcodec_send_frame!(video, nil))
            try drain(video, stream: videoStream!)
        }
        if let audio {
            // What the resampler still holds (its filter's tail), then the encoder's own.
            try drawAudio(flushing: true)
            try check(ff.avcodec_send_frame!(audio, nil))
            try drain(audio, stream: audioStream!)
        }
        try check(ff.av_write_trailer!(format))
        try check(ff.avio_closep!(&format.pointee.pb))
    }

    private func check(_ result: Int32) throws(VideoEncoderError) {
        if result < 0 { throw VideoEncoderError(Self.text(result)) }
    }

    private static func text(_ code: Int32) -> String { FFmpegLibraries.errorText(code) }

    deinit {
        if let format, format.pointee.pb != nil { _ = ff.avio_closep!(&format.pointee.pb) }
        ff.avcodec_free_context!(&video)
        ff.avcodec_free_context!(&audio)
        ff.av_frame_free!(&videoFrame)
        ff.av_frame_free!(&audioFrame)
        ff.av_packet_free!(&packet)
        ff.swr_free!(&resampler)
        if let format { ff.avformat_free_context!(format) }
    }
}
