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

    /// What `receiveFrame` found.
    enum ReceivedFrame {
        /// A frame is in `frame` (the caller unrefs it).
        case frame
        /// The decoder gave its last frame (it was flushed and is empty).
        case drained
        /// Flushed, it still asks for input or keeps failing: nothing more will come out of it.
        case stuck
    }

    /// The packet loop both decoders run: the next frame of the chosen stream, with packets read
    /// and handed to the decoder as it asks. A damaged packet or frame goes to `damaged` and is
    /// skipped; more than 64 calls in a row without progress fail (`finished` is then set). A
    /// demuxer error goes to `demuxFailed`: true to read on (it stepped over corrupt data), false
    /// for the end of the input (the decoder is then flushed), or it throws.
    func receiveFrame(path: String, damaged: (Int32) -> Void,
                      demuxFailed: (Int32) throws(AudioFileError) -> Bool) throws(AudioFileError) -> ReceivedFrame {
        guard let codec, let packet, let frame else { return .stuck }
        func fatal(_ reason: String) -> AudioFileError {
            finished = true
            return AudioFileError(path: path, reason: reason)
        }
        let eagain = decibar_averror_eagain()
        // Guards against a decoder that neither accepts input nor produces output.
        var stalls = 0
        while true {
            let received = ff.avcodec_receive_frame!(codec, frame)
            if received == 0 { return .frame }
            if received == decibar_averror_eof() { return .drained }
            if received != eagain {
                // Some decoders report a bad packet here rather than from send: skip it. While
                // draining, keep asking for the frames still inside; before that, feed more input.
                damaged(received)
                stalls += 1
                if inputEnded { if stalls <= 64 { continue } else { return .stuck } }
                if stalls > 64 { throw fatal("decoding failed: \(FFmpegLibraries.errorText(received))") }
            } else if inputEnded {
                return .stuck
            }
            if !packetPending {
                let result = ff.av_read_frame!(format, packet)
                if result < 0 {
                    if try demuxFailed(result) { continue }
                    // The end of the input: an empty packet puts the decoder into draining mode.
                    inputEnded = true
                    _ = ff.avcodec_send_packet!(codec, nil)
                    continue
                }
                demuxErrors = 0
                if packet.pointee.stream_index != streamIndex {
                    ff.av_packet_unref!(packet)
                    continue
                }
            }
            switch sendPacket() {
            case .full:
                // Its output queue is full: the packet is kept; receive first.
                stalls += 1
                if stalls > 64 { throw fatal("decoding failed: the decoder stopped making progress") }
            case .refused(let code):
                // Corrupt data: the packet is dropped; carry on with the next one.
                damaged(code)
            case .accepted:
                stalls = 0
            }
        }
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
