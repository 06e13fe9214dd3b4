import DecibarCore
import CSndfile
import Glibc

/// libsndfile's reader, for the overview of a lossless file on disk: WAV (and W64, RF64), AIFF and
/// FLAC holding integer or float PCM, in mono or stereo.
///
/// Why a second decoder: FFmpeg's libraries and the many libraries they link take about 20 MiB of
/// memory just to load, more than the overview of an hour of audio. libsndfile is already in every
/// Decibar process (libpulse links it) and reads these formats to the same floats as FFmpeg plus
/// swresample (integers scaled by the same power of two; `SoundFileReaderTests` holds them equal),
/// so `decibar peaks` of a FLAC never loads FFmpeg. Lossy formats stay with FFmpeg: other decoders
/// of MP3 or Vorbis round differently, and the overview must match what plays.
public final class SoundFileReader: FrameReader {
    public let sampleRate: Int
    public let channelCount: Int
    /// The frame count libsndfile reads from the header (exact for these formats unless damaged).
    public let frameCount: Int64
    public var estimatedFrameCount: Int64? { frameCount }
    public var frameCountForReservation: Int64 {
        // A header can claim anything: no more frames than the file's bytes could hold.
        let bound = byteCount.multipliedReportingOverflow(by: 64)
        return min(frameCount, bound.overflow ? .max : bound.partialValue)
    }
    /// Frames delivered so far (the position of the next `read`).
    public private(set) var framePosition: Int64 = 0

    private let path: String
    private let byteCount: Int64
    /// Holds the descriptor libsndfile reads through: a path is opened and checked the same way as
    /// for FFmpeg (regular files only, never waiting on a pipe).
    private let input: AudioFileInput
    private let file: OpaquePointer
    private let sf: DecibarSndfile
    /// libsndfile, opened on first use; without it every file goes to FFmpeg.
    private static let library = LoadedLibrary<DecibarSndfile> { decibar_sndfile_load($0, $1) }
    private let chunk: UnsafeMutableBufferPointer<Float>
    private static let chunkFrames = 4096
    /// The first four bytes of WAV, RF64, Sony Wave64, AIFF and FLAC files.
    private static let containerMagic: [[UInt8]] = ["RIFF", "RF64", "riff", "FORM", "fLaC"].map { Array($0.utf8) }

    /// The reader for `path`, or nil when libsndfile cannot read it exactly as FFmpeg would (another
    /// format, a codec inside WAV, more than two channels) or cannot open it at all: the caller
    /// then decodes with FFmpeg, which also words any error.
    public init?(path: String) {
        guard let sf = Self.library.table, let input = try? AudioFileInput(path: path), let descriptor = input.descriptor else { return nil }
        // Only what starts as these containers do: libsndfile would otherwise probe other formats
        // itself (an MP3 through libmpg123, which writes its complaints to stderr).
        var magic = [UInt8](repeating: 0, count: 4)
        guard pread(descriptor, &magic, 4, 0) == 4, Self.containerMagic.contains(magic) else { return nil }
        var info = SF_INFO()
        // libsndfile reads the descriptor but leaves closing it to `input`.
        guard let file = sf.sf_open_fd!(descriptor, Int32(SFM_READ), &info, 0) else { return nil }
        let major = Int(info.format) & Int(SF_FORMAT_TYPEMASK)
        let subtype = Int(info.format) & Int(SF_FORMAT_SUBMASK)
        let containers = [SF_FORMAT_WAV, SF_FORMAT_WAVEX, SF_FORMAT_W64, SF_FORMAT_RF64, SF_FORMAT_AIFF, SF_FORMAT_FLAC].map { Int($0) }
        let encodings = [SF_FORMAT_PCM_S8, SF_FORMAT_PCM_U8, SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_32,
                         SF_FORMAT_FLOAT, SF_FORMAT_DOUBLE].map { Int($0) }
        guard containers.contains(major), encodings.contains(subtype), (1 ... 2).contains(info.channels),
              info.samplerate > 0, info.frames > 0, info.seekable != 0 else {
            sf.sf_close!(file)
            return nil
        }
        self.path = path
        self.sf = sf
        self.input = input
        self.file = file
        byteCount = input.size
        sampleRate = Int(info.samplerate)
        channelCount = Int(info.channels)
        frameCount = Int64(info.frames)
        chunk = .allocate(capacity: Self.chunkFrames * channelCount)
    }

    deinit {
        sf.sf_close!(file)
        chunk.deallocate()
    }

    public func read(_ body: (UnsafeBufferPointer<Float>) -> Void) throws(AudioFileError) -> Bool {
        let frames = sf.sf_readf_float!(file, chunk.baseAddress, sf_count_t(Self.chunkFrames))
        guard frames > 0 else {
            let code = sf.sf_error!(file)
            if code != 0 { throw AudioFileError(path: path, reason: "read error: \(sf.sf_error_number!(code).map { String(cString: $0) } ?? "error \(code)")") }
            return false
        }
        framePosition += Int64(frames)
        body(UnsafeBufferPointer(rebasing: chunk[0 ..< Int(frames) * channelCount]))
        return true
    }

    public func seek(toFrame target: Int64) throws(AudioFileError) {
        let goal = min(max(0, target), frameCount)
        guard sf.sf_seek!(file, sf_count_t(goal), SEEK_SET) == goal else {
            throw AudioFileError(path: path, reason: "cannot seek to frame \(goal)")
        }
        framePosition = goal
    }
}
