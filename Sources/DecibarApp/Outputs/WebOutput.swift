import DecibarCore

/// The web page: each tick, the bars, spectrum or meter as the window would draw them on each
/// page's canvas (the same layout, heights and colors), and a `/levels` line.
final class WebOutput: Output {
    let target: OutputTarget
    let needs: OutputNeeds
    let server: WebPageServer
    private let layout: BarLayout
    private let background: String
    private var rects: [PixelRect] = []
    private var picture = MeterPicture()
    /// What `prepare` made, sent by `emit`.
    private var pending: (frames: [(size: PixelSize, text: String)], line: String)?
    private let caps: Bool
    /// The spectrum's frequency labels go under it, as in the window.
    private let labelsFrequencies: Bool
    private let lowsAtEdges: Bool
    private let meterScale: MeterScale
    private let loudnessTargets: [Double]
    private let start: Double
    /// Said under the page's picture when the window shows what the page cannot draw.
    private let note: String?

    /// nil when the page cannot be served (said in one line).
    init?(target: OutputTarget, display: DisplaySettings, notice: @escaping @Sendable (String) -> Void) {
        var target = target
        // Beyond loopback a token is needed: one is made when none was given (the URL says it).
        if !target.isLoopback && target.token == nil { target.token = Self.makeToken() }
        guard let server = WebPageServer.start(target, notice: notice) else { return nil }
        self.target = target
        self.server = server
        layout = display.barLayout
        caps = display.caps
        let page = display.mode.details?.page ?? .bars
        labelsFrequencies = page == .spectrum
        lowsAtEdges = display[SpectrumSettings.rows.lowsAtEdges]
        meterScale = display[MeterSettings.rows.scale]
        loudnessTargets = display[MeterSettings.rows.loudnessTargets]
        // A meter shows loudness: the lane measures it then.
        needs = page == .meter ? [.loudness] : []
        // Where the window shows its background, the page is transparent unless it is opaque.
        background = display.background == .opaque ? Self.hex(display.barTheme.background) : "transparent"
        // A mode the page cannot draw (one drawn by a library in the window's OpenGL context, or
        // from the audio itself) says what the page draws instead.
        note = display.mode.details?.pageNote
        start = MonotonicClock.now()
        notice("the page is at \(server.pageURL)")
    }

    deinit { server.close() }

    func prepare(_ lane: OutputLane, now: Double) {
        pending = nil
        guard server.clientCount > 0 else { return }
        let frames = server.pageSizes.map { size -> (size: PixelSize, text: String) in
            (size, lane.meterState.map { meterFrame($0, lane: lane, size: size) } ?? barsFrame(lane, size: size))
        }
        pending = (frames, LevelLine.json(time: now - start, reading: lane.reading) + "\n")
    }

    func emit() {
        if let pending { server.broadcast(frames: pending.frames, line: pending.line) }
    }

    /// The frame's start: the background, the theme's gradient and the canvas it is laid out for.
    private func head(_ theme: BarTheme, size: PixelSize, axis: (baseline: Double, reach: Double)) -> String {
        "{\"bg\":\"\(background)\",\"center\":\"\(Self.hex(theme.center))\",\"tip\":\"\(Self.hex(theme.tip))\","
            + "\"axis\":[\(Int(axis.baseline.rounded())),\(Int(axis.reach.rounded()))],\"w\":\(size.width),\"h\":\(size.height),"
            + (note.map { "\"note\":\"\($0)\"," } ?? "")
    }

    /// Bars or the spectrum, with the peak caps when the window draws them.
    private func barsFrame(_ lane: OutputLane, size: PixelSize) -> String {
        layout.rects(for: lane.bars.field.values, width: size.width, height: size.height, into: &rects)
        var text = head(lane.theme, size: size, axis: layout.growthAxis(canvasHeight: size.height))
        text += "\"bars\":[" + rects.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ",") + "]"
        if caps {
            layout.rects(for: lane.bars.field.caps.values, width: size.width, height: size.height, into: &rects)
            var strips: [PixelRect] = []
            layout.capStrips(over: rects, canvasHeight: size.height, into: &strips)
            text += ",\"over\":" + Self.json(strips.map { (rect: $0, color: MeterPicture.capColor) })
        }
        if labelsFrequencies, let bands = lane.bars.bands {
            layout.rects(for: lane.bars.field.values, width: size.width, height: size.height, into: &rects)
            let font = Self.fontSize(size)
            let y = FrequencyLabels.y(height: size.height, maximumBarHeight: layout.maximumHeight(canvasHeight: size.height),
                                      orientation: layout.orientation, textHeight: font)
            var texts: [String] = []
            // The page's sans-serif digits are about 0.56 em wide: near enough to keep labels apart.
            FrequencyLabels.place(bandCount: bands.count, band: { bands.band(containing: $0) }, barRects: rects, width: size.width,
                                  lowsAtEdges: lowsAtEdges, textWidth: { Int((0.56 * Double(font * $0.count)).rounded()) }) { words, x in
                texts.append(Self.text(x: x, y: y, align: "l", anchor: "t", color: FrequencyLabels.color, words))
            }
            text += ",\"font\":\(font),\"texts\":[" + texts.joined(separator: ",") + "]"
        }
        return text + "}"
    }

    /// The level meter as the window draws it: its shapes, and its texts placed by the page.
    private func meterFrame(_ state: MeterState, lane: OutputLane, size: PixelSize) -> String {
        let geometry = MeterLayout(width: size.width, height: size.height, channelCount: state.channels, loudnessBarCount: 2,
                                   scale: meterScale)
        picture.build(geometry, meter: state.meter, loudness: state.loudness, targets: loudnessTargets, theme: lane.theme,
                      floorDB: MeterState.floorDB)
        var text = head(lane.theme, size: size, axis: picture.axis)
        text += "\"bars\":[" + picture.bars.map { "\($0.x),\($0.y),\($0.width),\($0.height)" }.joined(separator: ",") + "],"
        text += "\"under\":" + Self.json(picture.under) + ",\"over\":" + Self.json(picture.over) + ","
        var texts: [String] = []
        func add(_ x: Int, _ y: Int, _ align: String, _ anchor: String, _ color: Color, _ words: String) {
            texts.append(Self.text(x: x, y: y, align: align, anchor: anchor, color: color, words))
        }
        for level in geometry.visibleTicks {
            let words = level == 0 ? (meterScale == .lufs ? "LUFS" : "0 dB") : String(Int(level.rounded()))
            add(geometry.labelWidth - 6, geometry.y(forDB: level), "r", "m", MeterPicture.labelColor, words)
        }
        func figure(_ value: Double?) -> String { value.map { Self.decimal($0) } ?? "--" }
        let channels = geometry.channelCount
        for channel in 0 ..< channels {
            let slot = geometry.barSlot(channel: channel)
            let reading = state.meter.reading(channel: channel)
            let name = channels == 1 ? "M" : channel == 0 ? "L" : "R"
            add(slot.x + slot.width / 2, geometry.lamp(channel: channel).y - 2, "c", "b", MeterPicture.labelColor,
                "\(name)  \(figure(Double(reading.rmsDB))) / \(figure(Double(reading.peakDB)))")
        }
        let loudness = state.loudness
        for index in 0 ..< 2 {
            let slot = geometry.loudnessSlot(index)
            add(slot.x + slot.width / 2, geometry.lamp(channel: 0).y - 2, "c", "b", MeterPicture.labelColor,
                (index == 0 ? "M  " : "S  ") + figure(index == 0 ? loudness?.momentaryLUFS : loudness?.shortTermLUFS))
        }
        let first = geometry.barSlot(channel: 0), last = geometry.loudnessSlot(1)
        for target in loudnessTargets {
            add(last.maxX + 8, geometry.y(forDB: Float(target)), "l", "m", MeterPicture.targetColor, String(Int(target.rounded())))
        }
        let truePeak = loudness.flatMap { $0.truePeakDBTP > LoudnessReading.floorDBTP ? $0.truePeakDBTP : nil }
        add((first.x + last.maxX) / 2, (geometry.scaleBottom + size.height) / 2, "c", "m", MeterPicture.labelColor,
            "I \(figure(loudness?.integratedLUFS)) LUFS   LRA \(figure(loudness?.loudnessRangeLU)) LU   TP \(figure(truePeak)) dBTP")
        return text + "\"font\":\(Self.fontSize(size)),\"texts\":[" + texts.joined(separator: ",") + "]}"
    }

    /// The texts' size in pixels on a page's canvas.
    private static func fontSize(_ size: PixelSize) -> Int { Swift.max(11, size.height / 42) }

    /// A text for the page: [x, y, align (l, c, r), anchor (m: y is its middle, b: its bottom, t: its top), color, text].
    private static func text(x: Int, y: Int, align: String, anchor: String, color: Color, _ words: String) -> String {
        "[\(x),\(y),\"\(align)\",\"\(anchor)\",\"\(css(color))\",\(quoted(words))]"
    }

    /// Shapes as a flat array: x, y, width, height, CSS color, and so on.
    private static func json(_ shapes: [(rect: PixelRect, color: Color)]) -> String {
        "[" + shapes.map { "\($0.rect.x),\($0.rect.y),\($0.rect.width),\($0.rect.height),\"\(css($0.color))\"" }.joined(separator: ",") + "]"
    }

    static func css(_ color: Color) -> String {
        func byte(_ value: Float) -> Int { Int((Swift.min(1, Swift.max(0, value)) * 255).rounded()) }
        return "rgba(\(byte(color.red)),\(byte(color.green)),\(byte(color.blue)),\(Self.decimal(Double(color.alpha), places: 3)))"
    }

    /// One decimal, as the window prints figures.
    static func decimal(_ value: Double, places: Int = 1) -> String {
        var bytes: [UInt8] = []
        DecimalText.append(value, places: places, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    var statusLine: @Sendable () -> String {
        let (target, server) = (target, server)
        return { "\(target.url): the page at \(server.pageURL), \(server.clientCount) client(s), \(server.sentFrames.load(ordering: .relaxed)) frames sent, \(server.droppedFrames.load(ordering: .relaxed)) dropped" }
    }

    /// 22 random letters and digits (about 131 bits).
    static func makeToken() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0 ..< 22).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func hex(_ color: Color) -> String {
        func byte(_ value: Float) -> String {
            let byte = Int((Swift.min(1, Swift.max(0, value)) * 255).rounded())
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return "#" + byte(color.red) + byte(color.green) + byte(color.blue)
    }
}
