/// Lines for status bars, made from band levels and channel levels:
///
/// - `waybar`: one JSON object per line, as waybar's custom module takes it with
///   `"return-type": "json"`: `{"text": "▁▃▅▇▅▃▁", "percentage": 62, "class": "playing",
///   "tooltip": "L -12.3 dBFS  R -13.0 dBFS"}`. The text is one glyph per bar; the percentage is
///   the louder channel's RMS level on a -60...0 dBFS scale; the class is `clip` when a sample
///   reached -0.1 dBFS, `silent` once the level stayed under -60 dBFS for half a second,
///   `playing` otherwise.
/// - `ascii`: cava's raw ASCII output: each bar's value from 0 to `asciiMax` followed by `;`,
///   one frame per line (`0;3;7;1;`), for polybar and scripts written for cava.
///
/// Bars follow the music with the window's automatic sensitivity (the loudest band near the top
/// whatever the loudness), as cava's autosens does. A line the same as the previous one is not
/// repeated: status bars redraw on every line they read.
public struct StatusBarFeed: Sendable {
    public enum Format: String, CaseIterable, Sendable {
        case waybar
        case ascii
    }

    public let format: Format
    public let barCount: Int
    public let asciiMax: Int
    private var sensitivity = AutoSensitivity()
    private var lastTime: Double?
    private var silentSince: Double?
    private var previous: [UInt8] = []
    private var line: [UInt8] = []
    private var bars: [Float]

    /// The lowest level of the percentage and of `silent`.
    public static let floorDB: Float = -60
    /// A peak at or above this is a `clip`.
    public static let clipDB: Float = -0.1
    /// How long the level must stay under the floor to be `silent`.
    public static let silentAfter = 0.5
    static let glyphs: [[UInt8]] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"].map { Array($0.utf8) }

    public init(format: Format, barCount: Int, asciiMax: Int = 1000) {
        precondition(barCount >= 1 && asciiMax >= 1, "a feed needs bars and a range")
        self.format = format
        self.barCount = barCount
        self.asciiMax = asciiMax
        bars = Array(repeating: 0, count: barCount)
        // A band 40 dB under the loudest is an empty bar (a few glyphs need a lively span), and
        // the reference stays 40 dB above the spectrum's -70 dB floor, so empty bands stay empty.
        sensitivity.spanDB = 40
        sensitivity.lowestReferenceDB = -30
    }

    /// The line for the audio at `time` (seconds), or nil when it would repeat the last one.
    /// - Parameters:
    ///   - bands: band levels in dB, `bands[channel][band]`, low to high.
    ///   - rmsDB, peakDB: each channel's levels over the line, in dBFS.
    public mutating func line(time: Double, bands: [[Float]], rmsDB: [Float], peakDB: [Float]) -> [UInt8]? {
        // The first line sets the reference at once (any positive step does).
        let dt = lastTime.map { time - $0 } ?? 1
        lastTime = time
        let loudestRMS = rmsDB.max() ?? Decibels.floor
        var loudestBand = -Float.infinity
        for channel in bands { for level in channel { loudestBand = Swift.max(loudestBand, level) } }
        sensitivity.advance(loudestDB: loudestBand, levelDB: loudestRMS, dt: dt)
        fillBars(from: bands)

        if loudestRMS < Self.floorDB {
            if silentSince == nil { silentSince = time }
        } else {
            silentSince = nil
        }
        line.removeAll(keepingCapacity: true)
        switch format {
        case .ascii:
            for value in bars {
                DecimalText.append(integer: Swift.min(asciiMax, Swift.max(0, Int((value * Float(asciiMax)).rounded()))), to: &line)
                line.append(UInt8(ascii: ";"))
            }
        case .waybar:
            line.append(contentsOf: Self.textKey)
            for value in bars { line.append(contentsOf: Self.glyphs[Swift.min(7, Swift.max(0, Int(value * 8)))]) }
            line.append(contentsOf: Self.percentageKey)
            let share = (loudestRMS - Self.floorDB) / -Self.floorDB
            DecimalText.append(integer: Int(Swift.min(100, Swift.max(0, (share * 100).rounded()))), to: &line)
            line.append(contentsOf: Self.classKey)
            let isClipping = peakDB.contains { $0 >= Self.clipDB }
            let isSilent = silentSince.map { time - $0 >= Self.silentAfter } ?? false
            line.append(contentsOf: isClipping ? Self.clip : isSilent ? Self.silent : Self.playing)
            line.append(contentsOf: Self.tooltipKey)
            appendTooltip(rmsDB)
            line.append(contentsOf: Self.end)
        }
        line.append(UInt8(ascii: "\n"))
        guard line != previous else { return nil }
        swap(&previous, &line)
        return previous
    }

    /// Each bar from the band under it, the louder channel's; bands and bars need not match in
    /// number (low bands merge when they hold no FFT bin).
    private mutating func fillBars(from bands: [[Float]]) {
        let bandCount = bands.map(\.count).min() ?? 0
        for bar in 0 ..< barCount {
            guard bandCount > 0 else { bars[bar] = 0; continue }
            let band = Swift.min(bandCount - 1, bar * bandCount / barCount)
            var level = -Float.infinity
            for channel in bands { level = Swift.max(level, channel[band]) }
            bars[bar] = Swift.min(1, sensitivity.normalized(level, fullScale: 1))
        }
    }

    /// `L -12.3 dBFS  R -13.0 dBFS` (stereo), `-12.3 dBFS` (mono), numbered beyond two channels.
    private mutating func appendTooltip(_ rmsDB: [Float]) {
        for (channel, level) in rmsDB.enumerated() {
            if channel > 0 { line.append(contentsOf: Self.gap) }
            switch rmsDB.count {
            case 1: break
            case 2: line.append(contentsOf: channel == 0 ? Self.left : Self.right)
            default:
                DecimalText.append(integer: channel + 1, to: &line)
                line.append(UInt8(ascii: " "))
            }
            if level <= Decibels.floor {
                line.append(contentsOf: Self.minusInfinity)
            } else {
                DecimalText.append(Double(level), places: 1, to: &line)
            }
            line.append(contentsOf: Self.unit)
        }
    }

    private static let textKey = Array("{\"text\": \"".utf8)
    private static let percentageKey = Array("\", \"percentage\": ".utf8)
    private static let classKey = Array(", \"class\": \"".utf8)
    private static let tooltipKey = Array("\", \"tooltip\": \"".utf8)
    private static let end = Array("\"}".utf8)
    private static let gap = Array("  ".utf8)
    private static let left = Array("L ".utf8)
    private static let right = Array("R ".utf8)
    private static let minusInfinity = Array("-inf".utf8)
    private static let unit = Array(" dBFS".utf8)
    private static let clip = Array("clip".utf8)
    private static let silent = Array("silent".utf8)
    private static let playing = Array("playing".utf8)
}
