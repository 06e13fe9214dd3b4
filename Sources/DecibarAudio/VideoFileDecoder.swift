import CFFmpeg
import DecibarCore
import Glibc

/// Decodes a file's picture, frame by frame, as RGBA at a size the caller picks, with each frame's
/// time on the audio's clock (0 is the first sample `AudioFileDecoder` gives for the same file).
///
/// Reads through `AudioFileInput` like the audio decoder, so the same rules hold: a path is only
/// ever that file. A cover picture (an MP3's or M4A's attached art) is one still frame at time 0.
/// libavcodec decodes with its own threads (frame threading), which is what makes 1080p possible
/// on two cores; swscale turns the decoder's YUV into RGBA, scaled to the size asked for, so
/// nothing larger than what is drawn ever reaches the GPU.
///
/// Not thread-safe: use one instance from one thread at a time.
public final class VideoFileDecoder {
    public let path: String
    /// The coded picture size.
    public let width: Int
    public let height: Int
    /// Width over height as shown (the pixel aspect applied).
    public let aspectRatio: Double
    /// Frames per second the file states; nil for a still picture.
    public let frameRate: Double?
    /// A cover picture: one frame, shown for the whole track.
    public let isStill: Bool
    public let codecName: String

    let state: DecoderState
    /// The audio's first timestamp in seconds: picture time 0 is the audio's first sample.
    private let origin: Double
    private var stillDelivered = false
    /// After an exact seek: frames that end before this time are decoded but not converted.
    private var discardBefore: Double?
    /// Packets the decoder refused or frames it failed on (a damaged file).
    public private(set) var damagedPackets = 0
    /// Frames passed over because they were late (see `read`).
    public private(set) var lateFrames = 0
    /// How long the file says the picture lasts, in seconds; nil if it does not say.
    public let statedDuration: Double?

    /// Opens `path` and prepares its picture for decoding.
    public convenience init(path: String) throws(AudioFileError) {
        if let failure = AudioFileDecoder.loadLibraries() { throw AudioFileError(path: path, reason: failure) }
        try self.init(input: try AudioFileInput(path: path), name: path)
    }

    /// Decodes the picture of a download as it arrives (`name`, its address, stands for the path).
    public convenience init(source: any AudioByteSource, name: String) throws(AudioFileError) {
        if let failure = AudioFileDecoder.loadLibraries() { throw AudioFileError(path: name, reason: failure) }
        try self.init(input: AudioFileInput(source: source), name: name)
    }

    private init(input: AudioFileInput, name path: String) throws(AudioFileError) {
        self.path = path
        func fail(_ reason: String) -> AudioFileError { AudioFileError(path: path, reason: reason) }
        let state = DecoderState(input: input)
        let format = try state.openFormat(path: path, noun: "a media file")

        let index = ff.av_find_best_stream!(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        let streams = UnsafeBufferPointer(start: format.pointee.streams, count: Int(format.pointee.nb_streams))
        guard index >= 0 else {
            let hasVideo = streams.contains { $0?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO }
            throw fail(hasVideo ? "unsupported or damaged picture" : Self.noPicture)
        }
        state.streamIndex = index
        for i in streams.indices where i != Int(index) { streams[i]!.pointee.discard = AVDISCARD_ALL }
        let stream = streams[Int(index)]!
        let parameters = stream.pointee.codecpar!
        var name = ff.avcodec_get_name!(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
        if parameters.pointee.codec_id == AV_CODEC_ID_NONE {
            // A codec FFmpeg does not know: its four-character code, as the file names it.
            let tag = parameters.pointee.codec_tag
            let characters = (0 ..< 4).map { UInt8(truncatingIfNeeded: tag >> ($0 * 8)) }
            name = characters.allSatisfy({ (0x20 ... 0x7E).contains($0) }) ? String(decoding: characters, as: UTF8.self) : "unknown"
        }
        guard parameters.pointee.codec_id != AV_CODEC_ID_NONE, let codec = ff.avcodec_find_decoder!(parameters.pointee.codec_id) else {
            throw fail("unsupported video codec '\(name)'")
        }
        guard let context = ff.avcodec_alloc_context3!(codec) else { throw fail("out of memory") }
        state.codec = context
        if ff.avcodec_parameters_to_context!(context, parameters) < 0 { throw fail("cannot decode '\(name)' video") }
        context.pointee.pkt_timebase = stream.pointee.time_base
        // As many threads as cores (0: libavcodec decides), frame and slice threading.
        context.pointee.thread_count = 0
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        let opened = ff.avcodec_open2!(context, codec, nil)
        if opened < 0 { throw fail("cannot decode '\(name)' video: \(FFmpegLibraries.errorText(opened))") }
        guard context.pointee.width > 0, context.pointee.height > 0 else { throw fail("the picture has no size") }
        guard let packet = ff.av_packet_alloc!(), let frame = ff.av_frame_alloc!() else { throw fail("out of memory") }
        state.packet = packet
        state.frame = frame
        state.timeBase = stream.pointee.time_base

        width = Int(context.pointee.width)
        height = Int(context.pointee.height)
        let sampleAspect = parameters.pointee.sample_aspect_ratio
        let pixelAspect = sampleAspect.num > 0 && sampleAspect.den > 0 ? Double(sampleAspect.num) / Double(sampleAspect.den) : 1
        aspectRatio = Double(width) * pixelAspect / Double(height)
        isStill = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0
        let rate = stream.pointee.avg_frame_rate.den > 0 ? stream.pointee.avg_frame_rate : stream.pointee.r_frame_rate
        frameRate = isStill || rate.num <= 0 || rate.den <= 0 ? nil : Double(rate.num) / Double(rate.den)
        codecName = name
        let tb = stream.pointee.time_base
        if stream.pointee.duration > 0, stream.pointee.duration != FFmpegLibraries.noTimestamp {
            statedDuration = Double(stream.pointee.duration) * Double(tb.num) / Double(tb.den)
        } else if format.pointee.duration > 0, format.pointee.duration != FFmpegLibraries.noTimestamp {
            statedDuration = Double(format.pointee.duration) / Double(AV_TIME_BASE)
        } else {
            statedDuration = nil
        }
        // The audio's start, which is where its decoder's frame 0 lies.
        let audioIndex = ff.av_find_best_stream!(format, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        let reference = audioIndex >= 0 ? streams[Int(audioIndex)]! : stream
        let start = reference.pointee.start_time
        origin = start == FFmpegLibraries.noTimestamp ? 0
            : Double(start) * Double(reference.pointee.time_base.num) / Double(reference.pointee.time_base.den)
        self.state = state
    }

    /// The reason given for a file that has no picture at all (most audio files): not a problem.
    public static let noPicture = "no picture"

    /// A frame's length in seconds when the file does not say.
    public var nominalFrameDuration: Double { 1 / (frameRate ?? 25) }

    /// Decodes the next picture into `picture`, converted to RGBA at `width`×`height` (its pixels
    /// are reused when large enough). Returns false at the end of the picture. A damaged packet
    /// is skipped; the call fails only when nothing more can be decoded.
    /// - Parameter late: frames that end before this time are decoded (the next ones need them)
    ///   but not converted, and counted in `lateFrames`: a player that fell behind catches up.
    public func read(into picture: inout Picture, width: Int, height: Int, droppingBefore late: Double? = nil) throws(AudioFileError) -> Bool {
        let s = state
        guard let context = s.codec, let frame = s.frame, !s.finished else { return false }
        if isStill {
            guard !stillDelivered else { return false }
            stillDelivered = true
            let stream = s.format!.pointee.streams[Int(s.streamIndex)]!
            _ = withUnsafeMutablePointer(to: &stream.pointee.attached_pic) { ff.avcodec_send_packet!(context, $0) }
            _ = ff.avcodec_send_packet!(context, nil)
            guard ff.avcodec_receive_frame!(context, frame) == 0 else {
                s.finished = true
                throw AudioFileError(path: path, reason: "the cover picture cannot be decoded")
            }
            defer { ff.av_frame_unref!(frame) }
            convert(frame, into: &picture, width: width, height: height, time: 0, duration: .infinity)
            return true
        }
        while true {
            let received = try s.receiveFrame(path: path, damaged: { _ in damagedPackets += 1 }, demuxFailed: { _ throws(AudioFileError) in
                // The end (or an unreadable rest): drain the frames the decoder's threads hold.
                if let failure = s.input.sourceFailure { throw fatal(failure) }
                return false
            })
            guard received == .frame else {
                s.finished = true
                return false
            }
            defer { ff.av_frame_unref!(frame) }
            let (seconds, duration) = times(of: frame, after: picture.time)
            if let before = discardBefore {
                if seconds + duration <= before + 1e-6 { continue }
                discardBefore = nil
            }
            if let late, seconds + duration < late {
                lateFrames += 1
                continue
            }
            convert(frame, into: &picture, width: width, height: height, time: seconds, duration: duration)
            return true
        }
    }

    /// A decoded frame's time on the audio's clock and its length, in seconds.
    private func times(of frame: UnsafeMutablePointer<AVFrame>, after previous: Double) -> (Double, Double) {
        let tb = state.timeBase
        let timestamp = frame.pointee.best_effort_timestamp
        let seconds = timestamp == FFmpegLibraries.noTimestamp ? previous + nominalFrameDuration
            : Double(timestamp) * Double(tb.num) / Double(tb.den) - origin
        let duration = frame.pointee.pkt_duration > 0
            ? Double(frame.pointee.pkt_duration) * Double(tb.num) / Double(tb.den) : nominalFrameDuration
        return (seconds, duration)
    }

    /// Moves so that the next `read` gives the frame shown at `seconds`: exactly (`exact`, which
    /// decodes from the keyframe before it and drops what comes earlier), or the keyframe at or
    /// before it (fast: a preview while dragging).
    public func seek(to seconds: Double, exact: Bool) throws(AudioFileError) {
        let s = state
        if isStill { return }
        guard let format = s.format, let context = s.codec else { return }
        let tb = s.timeBase
        let timestamp = Int64(((max(0, seconds) + origin) * Double(tb.den) / Double(tb.num)).rounded(.down))
        let result = ff.av_seek_frame!(format, s.streamIndex, timestamp, AVSEEK_FLAG_BACKWARD)
        if result < 0 { throw AudioFileError(path: path, reason: "cannot seek the picture: \(FFmpegLibraries.errorText(result))") }
        ff.avcodec_flush_buffers!(context)
        if let packet = s.packet { ff.av_packet_unref!(packet) }
        s.packetPending = false
        s.inputEnded = false
        s.finished = false
        discardBefore = exact ? max(0, seconds) : nil
    }

    private func fatal(_ reason: String) -> AudioFileError {
        state.finished = true
        return AudioFileError(path: path, reason: reason)
    }

    /// Bytes past a picture's last row that swscale may write.
    static let scalerSlack = 1024

    private func convert(_ frame: UnsafeMutablePointer<AVFrame>, into picture: inout Picture, width: Int, height: Int,
                         time: Double, duration: Double) {
        let s = state
        let outWidth = max(1, width), outHeight = max(1, height)
        s.scaler = ff.sws_getCachedContext!(s.scaler, frame.pointee.width, frame.pointee.height, AVPixelFormat(frame.pointee.format),
                                             Int32(outWidth), Int32(outHeight), AV_PIX_FMT_RGBA, SWS_BILINEAR, nil, nil, nil)
        picture.resize(width: outWidth, height: outHeight)
        // swscale's vector code writes whole blocks of pixels: at a width that is not a multiple of
        // 16 (200) it wrote past the last row, into the heap. The slack takes those bytes.
        let needed = outWidth * outHeight * 4 + Self.scalerSlack
        if picture.pixels.count < needed { picture.pixels.append(contentsOf: repeatElement(0, count: needed - picture.pixels.count)) }
        picture.time = time
        picture.duration = duration
        guard let scaler = s.scaler else { return }
        picture.pixels.withUnsafeMutableBufferPointer { pixels in
            var target: UnsafeMutablePointer<UInt8>? = pixels.baseAddress
            var stride = Int32(outWidth * 4)
            withUnsafePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    withUnsafePointer(to: &frame.pointee.linesize) { lines in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                            _ = ff.sws_scale!(scaler, planes, strides, 0, frame.pointee.height, &target, &stride)
                        }
                    }
                }
            }
        }
    }
}
