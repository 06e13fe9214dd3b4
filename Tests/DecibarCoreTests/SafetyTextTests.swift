import DecibarCore
import Testing

@Suite("Numbers and text that must not crash or split a line")
struct SafetyTextTests {
    @Test("saturating conversion clamps, truncates toward zero and maps NaN to 0")
    func saturating() {
        #expect(Int64(saturating: 1e300) == Int64.max)
        #expect(Int64(saturating: -1e300) == Int64.min)
        #expect(Int64(saturating: .infinity) == Int64.max)
        #expect(Int64(saturating: .nan) == 0)
        #expect(Int64(saturating: 2.9) == 2 && Int64(saturating: -2.9) == -2)
        #expect(Int32(saturating: 3e9) == Int32.max)
        #expect(Int(saturating: 48000 / 1e-300) == Int.max)
        // The largest Double below 2^63 still converts exactly.
        #expect(Int64(saturating: 9_223_372_036_854_774_784) == 9_223_372_036_854_774_784)
    }

    @Test("control characters become escapes; everything else is kept")
    func escaping() {
        #expect("a\nb\tc\rd".escapingControlCharacters == "a\\nb\\tc\\rd")
        #expect("bell\u{7}esc\u{1B}del\u{7F}".escapingControlCharacters == "bell\\u{7}esc\\u{1B}del\\u{7F}")
        #expect("Motörhead – Ace.flac".escapingControlCharacters == "Motörhead – Ace.flac")
        #expect(!"x\n\n\ny".escapingControlCharacters.contains("\n"))
    }

    @Test("partial names round-trip, stay short and are told apart from everything else")
    func partialNames() {
        let key = PartialName.key(forDestination: "/home/me/" + String(repeating: "n", count: 250) + ".mp4")
        #expect(key.count == 16)
        let name = PartialName(key: key, processID: 4242, tag: "ab12cd34", role: "video", fileExtension: "mkv")
        #expect(name.name == ".decibar-\(key)-4242-ab12cd34.partial-video.mkv")
        #expect(name.name.utf8.count < 64)
        #expect(PartialName(parsing: name.name) == name)
        let plain = PartialName(key: key, processID: 7, tag: "x", fileExtension: "")
        #expect(PartialName(parsing: plain.name) == plain)
        #expect(PartialName.key(forDestination: "/a/out.mp4") == PartialName.key(forDestination: "/a/out.mp4"))
        #expect(PartialName.key(forDestination: "/a/out.mp4") != PartialName.key(forDestination: "/a/out.mov"))
        for other in ["out.mp4", ".out.partial-123.mp4", ".decibar-zz-1-a.partial", ".decibar-\(key)--a.partial",
                      ".decibar-\(key)-0-a.partial", ".decibar-\(key)-12-a/b.partial", ".decibar-\(key)-12-a.partialx"] {
            #expect(PartialName(parsing: other) == nil, "\(other)")
        }
    }

    @Test("a spectrum's FFT never asks for more history than the feed keeps", arguments: [1, 8000, 48000, 96000, 192_000, 384_000, 768_000])
    func fftLength(rate: Int) {
        let length = SpectrumBands.fftLength(forSampleRate: rate)
        #expect(length >= 256 && length <= AudioFeed.historyLength)
    }
}
