import CFFmpeg
import DecibarCore

// Turning decoded frames into interleaved float at the output layout: resampler set-up, down-mix and
// the speaker position of each channel.
extension AudioFileDecoder {
    /// Converts a decoded frame into `state.output`; returns the number of frames written.
    func convert(_ frame: UnsafeMutablePointer<AVFrame>) throws(AudioFileError) -> Int {
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
    func flushResampler(at offset: Int) throws(AudioFileError) -> Int {
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
        func build(folding: Bool) -> Int32 {
            ff.swr_free!(&s.resampler)
            var result = ff.swr_alloc_set_opts2!(&s.resampler, &s.outputLayout, AV_SAMPLE_FMT_FLT, s.outputRate,
                                                 &inputLayout, inputFormat, frame.pointee.sample_rate, 0, nil)
            if result >= 0, folding {
                result = setFoldingMatrix(inputChannels: Int(inputLayout.nb_channels), outputChannels: channelCount)
            }
            if result >= 0 { result = ff.swr_init!(s.resampler) }
            return result
        }
        // Channels swresample cannot place (no layout even by count, or unknown ones in a custom
        // layout) are folded; everything else gets swresample's own matrix.
        let differs = Int(inputLayout.nb_channels) != channelCount
        var result = build(folding: differs && inputLayout.order != AV_CHANNEL_ORDER_NATIVE && inputLayout.order != AV_CHANNEL_ORDER_CUSTOM)
        if result < 0, differs { result = build(folding: true) }
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
    static func isMixable(_ layout: AVChannelLayout) -> Bool {
        layout.nb_channels > 0 && (layout.order == AV_CHANNEL_ORDER_NATIVE || layout.order == AV_CHANNEL_ORDER_CUSTOM)
    }


    /// Channels with no names cannot be mixed by swresample's own matrix: channel i goes to output
    /// channel i mod n, averaged with the others that land there.
    private func setFoldingMatrix(inputChannels: Int, outputChannels: Int) -> Int32 {
        var matrix = [Double](repeating: 0, count: inputChannels * outputChannels)
        for output in 0 ..< outputChannels {
            let sources = stride(from: output, to: inputChannels, by: outputChannels)
            let gain = 1 / Double(sources.underestimatedCount)
            for input in sources { matrix[output * inputChannels + input] = gain }
        }
        return ff.swr_set_matrix!(state.resampler, matrix, Int32(inputChannels))
    }

    static func speakerPositions(of layout: inout AVChannelLayout) -> [SpeakerPosition] {
        var auxiliary = 0
        return (0 ..< Int(layout.nb_channels)).map { index in
            let channel = ff.av_channel_layout_channel_from_index!(&layout, UInt32(index))
            if let position = speakerPosition(channel) { return position }
            defer { auxiliary += 1 }
            return .auxiliary(auxiliary)
        }
    }

    private static func speakerPosition(_ channel: AVChannel) -> SpeakerPosition? {
        switch channel {
        case AV_CHAN_FRONT_LEFT, AV_CHAN_STEREO_LEFT, AV_CHAN_WIDE_LEFT: .frontLeft
        case AV_CHAN_FRONT_RIGHT, AV_CHAN_STEREO_RIGHT, AV_CHAN_WIDE_RIGHT: .frontRight
        case AV_CHAN_FRONT_CENTER: .frontCenter
        case AV_CHAN_LOW_FREQUENCY, AV_CHAN_LOW_FREQUENCY_2: .lowFrequency
        case AV_CHAN_BACK_LEFT: .backLeft
        case AV_CHAN_BACK_RIGHT: .backRight
        case AV_CHAN_BACK_CENTER: .backCenter
        case AV_CHAN_FRONT_LEFT_OF_CENTER: .frontLeftOfCenter
        case AV_CHAN_FRONT_RIGHT_OF_CENTER: .frontRightOfCenter
        case AV_CHAN_SIDE_LEFT, AV_CHAN_SURROUND_DIRECT_LEFT: .sideLeft
        case AV_CHAN_SIDE_RIGHT, AV_CHAN_SURROUND_DIRECT_RIGHT: .sideRight
        case AV_CHAN_TOP_CENTER: .topCenter
        case AV_CHAN_TOP_FRONT_LEFT: .topFrontLeft
        case AV_CHAN_TOP_FRONT_CENTER: .topFrontCenter
        case AV_CHAN_TOP_FRONT_RIGHT: .topFrontRight
        case AV_CHAN_TOP_BACK_LEFT: .topBackLeft
        case AV_CHAN_TOP_BACK_CENTER: .topBackCenter
        case AV_CHAN_TOP_BACK_RIGHT: .topBackRight
        default: nil
        }
    }
}
