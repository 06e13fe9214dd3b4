import DecibarCore
import Testing

@Suite("audiowaveform data formats")
struct AudiowaveformFormatTests {
    let stereo = Peaks(sampleRate: 48000, samplesPerPixel: 512, channelCount: 2, pairs: [
        [PeakPair(min: -0.5, max: 0.5), PeakPair(min: -1, max: 1)],
        [PeakPair(min: -0.25, max: 0.125), PeakPair(min: 0, max: 0)],
    ])

    @Test("values in 16-bit space, and 8-bit as the 16-bit value / 256 toward zero")
    func values() {
        #expect(AudiowaveformFormat.values(of: stereo, bits: .sixteen) == [-16384, 16384, -8192, 4096, -32767, 32767, 0, 0])
        #expect(AudiowaveformFormat.values(of: stereo, bits: .eight) == [-64, 64, -32, 16, -127, 127, 0, 0])
        #expect(AudiowaveformFormat.sixteenBit(1.5) == 32767)
        #expect(AudiowaveformFormat.sixteenBit(-1.5) == -32768)
        #expect(AudiowaveformFormat.stored(-0.001, bits: .eight) == 0) // -33 / 256 truncates to 0
    }

    @Test("JSON has audiowaveform's keys, order and no spaces")
    func json() {
        #expect(AudiowaveformFormat.json(stereo, bits: .eight) ==
            #"{"version":2,"channels":2,"sample_rate":48000,"samples_per_pixel":512,"bits":8,"length":2,"data":[-64,64,-32,16,-127,127,0,0]}"#)
    }

    @Test("binary: version 2 header of 24 bytes for stereo, little-endian")
    func binaryStereo() {
        let bytes = AudiowaveformFormat.binary(stereo, bits: .sixteen)
        #expect(bytes.count == 24 + 8 * 2)
        #expect(Array(bytes[0 ..< 24]) == [2, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xBB, 0, 0, 0, 2, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0])
        #expect(Array(bytes[24 ..< 28]) == [0x00, 0xC0, 0x00, 0x40]) // -16384, 16384
    }

    @Test("binary: version 1 header of 20 bytes for mono, flag bit 0 for 8-bit")
    func binaryMono() {
        let mono = Peaks(sampleRate: 44100, samplesPerPixel: 256, channelCount: 1, pairs: [[PeakPair(min: -1, max: 0.5)]])
        let bytes = AudiowaveformFormat.binary(mono, bits: .eight)
        #expect(bytes == [1, 0, 0, 0, 1, 0, 0, 0, 0x44, 0xAC, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0x81, 64])
    }

    @Test("binary data reads back", arguments: [AudiowaveformFormat.Bits.eight, .sixteen])
    func roundTrip(bits: AudiowaveformFormat.Bits) throws {
        let read = try AudiowaveformFormat.peaks(fromBinary: AudiowaveformFormat.binary(stereo, bits: bits))
        #expect(read.channelCount == 2 && read.sampleRate == 48000 && read.samplesPerPixel == 512 && read.length == 2)
        #expect(AudiowaveformFormat.values(of: read, bits: bits) == AudiowaveformFormat.values(of: stereo, bits: bits))
    }

    @Test("truncated or foreign data is refused")
    func badData() {
        let bytes = AudiowaveformFormat.binary(stereo, bits: .sixteen)
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.peaks(fromBinary: Array(bytes.dropLast())) }
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.peaks(fromBinary: [7, 0, 0, 0]) }
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.peaks(fromBinary: []) }
    }

    @Test("the header alone gives the exact size of the file, before any data is read")
    func header() throws {
        let header = try AudiowaveformFormat.binaryHeader(AudiowaveformFormat.binary(stereo, bits: .sixteen).prefix(24))
        #expect(header == AudiowaveformFormat.BinaryHeader(version: 2, bits: .sixteen, sampleRate: 48000, samplesPerPixel: 512,
                                                          length: 2, channelCount: 2))
        #expect(header.size == 24 && header.fileSize == 24 + 2 * 2 * 2 * 2)
        // A header claiming 2^31-1 pairs of 24 channels: a size to compare with the file's, nothing allocated.
        let claim: [UInt8] = [2, 0, 0, 0, 0, 0, 0, 0, 0x44, 0xAC, 0, 0, 0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0x7F, 24, 0, 0, 0]
        #expect(try AudiowaveformFormat.binaryHeader(claim).fileSize == 24 + Int64(Int32.max) * 24 * 4)
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.peaks(fromBinary: claim) }
        let negative: [UInt8] = [2, 0, 0, 0, 0, 0, 0, 0, 0x44, 0xAC, 0, 0, 0, 1, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 2, 0, 0, 0]
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.binaryHeader(negative) }
    }

    @Test("JSON reads back, version 1 and 2, at 8 and 16 bits", arguments: [AudiowaveformFormat.Bits.eight, .sixteen])
    func jsonRoundTrip(bits: AudiowaveformFormat.Bits) throws {
        let read = try AudiowaveformFormat.peaks(fromJSON: Array(AudiowaveformFormat.json(stereo, bits: bits).utf8))
        #expect(read.channelCount == 2 && read.sampleRate == 48000 && read.samplesPerPixel == 512 && read.length == 2)
        #expect(AudiowaveformFormat.values(of: read, bits: bits) == AudiowaveformFormat.values(of: stereo, bits: bits))
        let version1 = #"{"version":1,"sample_rate":44100,"samples_per_pixel":256,"bits":16,"length":1,"data":[-32767,16384]}"#
        let mono = try AudiowaveformFormat.peaks(fromJSON: Array(version1.utf8))
        #expect(mono.channelCount == 1 && AudiowaveformFormat.values(of: mono, bits: .sixteen) == [-32767, 16384])
    }

    @Test("JSON that is malformed, inconsistent or out of range is refused with a reason", arguments: [
        "", "{", "[]", #"{"version":2}"#, #"{"version":3,"channels":1,"sample_rate":1,"samples_per_pixel":2,"bits":8,"length":0,"data":[]}"#,
        #"{"version":2,"channels":1,"sample_rate":1,"samples_per_pixel":2,"bits":8,"length":2,"data":[1,2]}"#,
        #"{"version":2,"channels":1,"sample_rate":1,"samples_per_pixel":2,"bits":8,"length":1,"data":[1,200]}"#,
        #"{"version":2,"channels":0,"sample_rate":1,"samples_per_pixel":2,"bits":8,"length":0,"data":[]}"#,
        #"{"version":2,"channels":1,"sample_rate":1,"samples_per_pixel":2,"bits":12,"length":0,"data":[]}"#,
        #"{"version":2,"channels":1,"sample_rate":1,"samples_per_pixel":2,"bits":8,"length":1,"data":["a","b"]}"#,
        // Found by the fuzzer: a rate the binary format cannot hold (it was written truncated).
        #"{"version":2,"channels":1,"sample_rate":8009999999990,"samples_per_pixel":512,"bits":16,"length":1,"data":[-4095,4095]}"#,
    ])
    func badJSON(text: String) {
        #expect(throws: AudiowaveformFormat.ReadError.self) { try AudiowaveformFormat.peaks(fromJSON: Array(text.utf8)) }
    }
}
