import DecibarCore
import Foundation
import Testing

@Suite("Status-bar feeds")
struct StatusBarFeedTests {
    func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// Eight bands with one loud band (the fourth), as a 440 Hz tone gives.
    let tone: [[Float]] = [[-70, -70, -70, -20, -70, -70, -70, -70], [-70, -70, -70, -21, -70, -70, -70, -70]]

    @Test("waybar: glyphs, the louder channel's level as a percentage of -60...0 dBFS, the class and a tooltip")
    func waybar() throws {
        var feed = StatusBarFeed(format: .waybar, barCount: 8)
        let line = try #require(text(feed.line(time: 0, bands: tone, rmsDB: [-12.34, -13.0], peakDB: [-9, -10])))
        // The reference is set by the first music: the loud band fills 95 % (the 8th glyph's seventh eighth).
        #expect(line == #"{"text": "▁▁▁█▁▁▁▁", "percentage": 79, "class": "playing", "tooltip": "L -12.3 dBFS  R -13.0 dBFS"}"# + "\n")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["text", "percentage", "class", "tooltip"])
        // The same line again is not repeated.
        #expect(feed.line(time: 0.05, bands: tone, rmsDB: [-12.34, -13.0], peakDB: [-9, -10]) == nil)
        // A peak at -0.1 dBFS clips.
        #expect(text(feed.line(time: 0.1, bands: tone, rmsDB: [-3, -3], peakDB: [-0.1, -4]))?.contains(#""class": "clip""#) == true)
    }

    @Test("silent after half a second under -60 dBFS; -inf for digital silence; mono and many channels")
    func silence() throws {
        var feed = StatusBarFeed(format: .waybar, barCount: 4)
        let quiet: [[Float]] = [[-70, -70, -70, -70]]
        let first = try #require(text(feed.line(time: 1, bands: quiet, rmsDB: [-160], peakDB: [-160])))
        #expect(first.contains(#""class": "playing""#) && first.contains(#""tooltip": "-inf dBFS""#) && first.contains(#""percentage": 0"#))
        #expect(feed.line(time: 1.4, bands: quiet, rmsDB: [-160], peakDB: [-160]) == nil)
        #expect(text(feed.line(time: 1.5, bands: quiet, rmsDB: [-160], peakDB: [-160]))?.contains(#""class": "silent""#) == true)
        var surround = StatusBarFeed(format: .waybar, barCount: 1)
        #expect(text(surround.line(time: 0, bands: [[-30]], rmsDB: [-20, -21, -22], peakDB: [-10, -10, -10]))?
            .contains(#""tooltip": "1 -20.0 dBFS  2 -21.0 dBFS  3 -22.0 dBFS""#) == true)
    }

    @Test("ascii is cava's raw format: values 0...max, each followed by ';', one frame per line")
    func ascii() throws {
        var feed = StatusBarFeed(format: .ascii, barCount: 8, asciiMax: 100)
        #expect(text(feed.line(time: 0, bands: tone, rmsDB: [-12, -12], peakDB: [-9, -9])) == "0;0;0;95;0;0;0;0;\n")
        // More bars than bands: each bar shows the band under it.
        var wide = StatusBarFeed(format: .ascii, barCount: 4, asciiMax: 7)
        #expect(text(wide.line(time: 0, bands: [[-20, -70]], rmsDB: [-12], peakDB: [-9])) == "7;7;0;0;\n")
    }
}
