// libFuzzer target: the readers of audiowaveform overviews (.dat and JSON), which read caches and
// files given to `decibar peaks`. Any input must give peaks or a ReadError, never a crash, and what
// one reader accepts must write and read back unchanged.
import DecibarCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOverviewReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    if let peaks = try? AudiowaveformFormat.peaks(fromBinary: bytes) { checkRoundTrip(peaks) }
    if let peaks = try? AudiowaveformFormat.peaks(fromJSON: bytes) { checkRoundTrip(peaks) }
    if let header = try? AudiowaveformFormat.binaryHeader(bytes) {
        precondition(header.fileSize >= Int64(header.size))
    }
    return 0
}

/// Peaks a reader accepted write and read back to the same values, in both formats.
private func checkRoundTrip(_ peaks: Peaks) {
    for bits in AudiowaveformFormat.Bits.allCases {
        let values = AudiowaveformFormat.values(of: peaks, bits: bits)
        let binary = try! AudiowaveformFormat.peaks(fromBinary: AudiowaveformFormat.binary(peaks, bits: bits))
        precondition(AudiowaveformFormat.values(of: binary, bits: bits) == values)
        let json = try! AudiowaveformFormat.peaks(fromJSON: Array(AudiowaveformFormat.json(peaks, bits: bits).utf8))
        precondition(AudiowaveformFormat.values(of: json, bits: bits) == values)
    }
}
