import CFFmpeg
import Glibc

/// FFmpeg's functions, once loaded (see CFFmpeg.h for why they are not linked directly).
// Unchecked: written once by the loader inside a `static let` initializer, read-only after.
struct FFmpegLibraries: @unchecked Sendable {
    let table: DecibarFFmpeg?
    let failure: String?

    static let shared: FFmpegLibraries = {
        var message = [CChar](repeating: 0, count: 256)
        if let table = decibar_ffmpeg_load(&message, Int32(message.count)) {
            // FFmpeg allocates what headers ask for; no audio file needs a single block this big.
            table.pointee.av_max_alloc!(maximumAllocation)
            // Failures reach callers as `AudioFileError`; the library's own lines would break the
            // one-line promise. The level is process-wide and set once here.
            table.pointee.av_log_set_level!(AV_LOG_QUIET)
            return FFmpegLibraries(table: table.pointee, failure: nil)
        }
        return FFmpegLibraries(table: nil, failure: String(cMessage: message))
    }()

    /// The largest single allocation FFmpeg may make (its own default is 2 GiB).
    static let maximumAllocation = 256 << 20

    /// FFmpeg's text for an error code.
    static func errorText(_ code: Int32) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 128) { buffer in
            if ff.av_strerror!(code, buffer.baseAddress, buffer.count) < 0 { return "error \(code)" }
            return String(cString: buffer.baseAddress!)
        }
    }

    /// `AV_NOPTS_VALUE` is a cast macro that does not import.
    static let noTimestamp = Int64.min
}

/// The loaded functions; only reached after `AudioFileDecoder.loadLibraries()` succeeded.
var ff: DecibarFFmpeg { FFmpegLibraries.shared.table! }
