import CFFmpeg

/// Owns every FFmpeg object of one decoder and frees them in its deinit, including when
/// `AudioFileDecoder.init` (or `VideoFileDecoder.init`) throws half-way.
final class DecoderState {
    /// Where FFmpeg reads from, and the I/O context reading it; both outlive the format context.
    let input: AudioFileInput
    var io: UnsafeMutablePointer<AVIOContext>?

    init(input: AudioFileInput) {
        self.input = input
    }

    var format: UnsafeMutablePointer<AVFormatContext>?
    var codec: UnsafeMutablePointer<AVCodecContext>?
    var packet: UnsafeMutablePointer<AVPacket>?
    var frame: UnsafeMutablePointer<AVFrame>?
    var resampler: OpaquePointer?
    /// The picture's color converter and scaler (a video decoder's).
    var scaler: OpaquePointer?
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
    /// Set by the first seek: from then on, reaching the end with nothing decoded is no failure.
    var hasSought = false
    var inputEnded = false
    var finished = false
    var lastError: Int32?
    var pendingFailure: AudioFileError?
    var demuxErrors = 0
    var lastDemuxErrorPosition: Int64 = -1

    /// What became of the packet handed to the decoder.
    enum PacketOutcome {
        case accepted
        /// The decoder's output queue is full: take frames first; the packet is kept for later.
        case full
        /// Corrupt data: the packet is dropped.
        case refused(Int32)
    }

    /// Hands the packet just read (or kept from a `.full`) to the decoder.
    func sendPacket() -> PacketOutcome {
        guard let codec, let packet else { return .refused(decibar_averror(EINVAL)) }
        let sent = ff.avcodec_send_packet!(codec, packet)
        if sent == decibar_averror_eagain() {
            packetPending = true
            return .full
        }
        packetPending = false
        ff.av_packet_unref!(packet)
        return sent < 0 ? .refused(sent) : .accepted
    }

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
        if let scaler { ff.sws_freeContext!(scaler) }
        ff.av_frame_free!(&frame)
        ff.av_packet_free!(&packet)
        ff.avcodec_free_context!(&codec)
        // Closing a format context with custom I/O leaves the I/O context to us.
        ff.avformat_close_input!(&format)
        AudioFileInput.freeIOContext(&io)
        ff.av_channel_layout_uninit!(&outputLayout)
        ff.av_channel_layout_uninit!(&inputLayout)
    }
}
