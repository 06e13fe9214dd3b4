import DecibarCore
import DecibarRender

/// `--mode meter`: a level meter per channel with its scale and figures, and the loudness bars
/// (momentary, short-term) with the integrated loudness, range and true peak under them.
final class LevelMeterVisual: Visual {
    static let mode = VisualModeDescription(name: "meter", summary: "RMS, peak and loudness per channel", page: .meter, pageDrawsItself: true,
                                            settings: MeterSettings.rows)

    private let tools: VisualTools
    private(set) var state: MeterState
    private var shapes = MeterPicture()

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        state = MeterState(settings: VisualTools.visualSettings(tools.display))
    }

    var needs: VisualNeeds { [.loudness] }
    var isAtRest: Bool { state.isAtRest }
    var meanValue: Float { state.meanValue }

    func update(_ frame: VisualFrame) { state.update(frame) }

    private var display: DisplaySettings { tools.display }
    private static let labelColor = MeterPicture.labelColor
    private static let targetColor = MeterPicture.targetColor

    func draw(_ canvas: VisualCanvas) {
        let (width, height, windowHeight) = (canvas.width, canvas.height, canvas.windowHeight)
        let channels = state.channels
        let meter = state.meter
        let geometry = MeterLayout(width: width, height: height, channelCount: channels, loudnessBarCount: 2,
                                   scale: display[MeterSettings.rows.scale])
        shapes.build(geometry, meter: meter, loudness: state.loudness, targets: display[MeterSettings.rows.loudnessTargets],
                     theme: tools.theme, floorDB: MeterState.floorDB)
        tools.shapes.removeAll(keepingCapacity: true)
        for shape in shapes.under { tools.shapes.append(shape) }
        tools.rects.draw(tools.shapes, canvasWidth: width, canvasHeight: windowHeight)
        tools.barRenderer.draw(shapes.bars, width: width, height: height, theme: tools.theme, windowHeight: windowHeight,
                               axis: shapes.axis)
        tools.shapes.removeAll(keepingCapacity: true)
        for shape in shapes.over { tools.shapes.append(shape) }
        tools.rects.draw(tools.shapes, canvasWidth: width, canvasHeight: windowHeight)
        guard let labels = tools.labels else { return }
        var lastLabelBottom = Int.min
        for level in geometry.visibleTicks {
            let text = level == 0 ? (display[MeterSettings.rows.scale] == .lufs ? "LUFS" : "0 dB") : Self.tickText(level)
            let size = labels.size(of: text)
            let y = geometry.y(forDB: level) - size.height / 2
            // On a short window the labels near 0 dB would overlap: skip those that would.
            guard y >= lastLabelBottom else { continue }
            labels.draw(text, x: geometry.labelWidth - size.width - 6, y: y, color: Self.labelColor, canvasWidth: width, canvasHeight: windowHeight)
            lastLabelBottom = y + size.height
        }
        // "L  -21.1 / -18.1": the figures change every frame, so they are drawn glyph by glyph.
        for channel in 0 ..< channels {
            let slot = geometry.barSlot(channel: channel)
            let reading = meter.reading(channel: channel)
            tools.textBytes.removeAll(keepingCapacity: true)
            tools.textBytes.append(channels == 1 ? UInt8(ascii: "M") : channel == 0 ? UInt8(ascii: "L") : UInt8(ascii: "R"))
            tools.textBytes.append(contentsOf: Self.twoSpaces)
            DecimalText.append(Double(reading.rmsDB), places: 1, to: &tools.textBytes)
            tools.textBytes.append(contentsOf: Self.slash)
            DecimalText.append(Double(reading.peakDB), places: 1, to: &tools.textBytes)
            let size = labels.size(ofCharacters: tools.textBytes)
            labels.draw(characters: tools.textBytes, x: slot.x + (slot.width - size.width) / 2,
                        y: geometry.lamp(channel: channel).y - size.height - 2, color: Self.labelColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        drawLoudnessText(geometry: geometry, labels: labels, windowHeight: windowHeight)
    }

    /// "M -23.0" and "S -23.1" over the loudness bars, target labels beside their marks, and
    /// "I -23.0 LUFS   LRA 4.2 LU   TP -1.0 dBTP" under the meter: built glyph by glyph.
    private func drawLoudnessText(geometry: MeterLayout, labels: TextRenderer, windowHeight: Int) {
        let loudness = state.loudness
        let width = geometry.width
        for index in 0 ..< 2 {
            let value = index == 0 ? loudness?.momentaryLUFS : loudness?.shortTermLUFS
            let slot = geometry.loudnessSlot(index)
            tools.textBytes.removeAll(keepingCapacity: true)
            tools.textBytes.append(index == 0 ? UInt8(ascii: "M") : UInt8(ascii: "S"))
            tools.textBytes.append(contentsOf: Self.twoSpaces)
            appendFigure(value)
            let size = labels.size(ofCharacters: tools.textBytes)
            labels.draw(characters: tools.textBytes, x: slot.x + (slot.width - size.width) / 2,
                        y: geometry.lamp(channel: 0).y - size.height - 2, color: Self.labelColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        let last = geometry.loudnessSlot(1)
        for target in display[MeterSettings.rows.loudnessTargets] {
            tools.textBytes.removeAll(keepingCapacity: true)
            DecimalText.append(target, places: 0, to: &tools.textBytes)
            let size = labels.size(ofCharacters: tools.textBytes)
            labels.draw(characters: tools.textBytes, x: min(width - size.width, last.maxX + 8),
                        y: geometry.y(forDB: Float(target)) - size.height / 2, color: Self.targetColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        tools.textBytes.removeAll(keepingCapacity: true)
        tools.textBytes.append(contentsOf: Self.integratedText)
        appendFigure(loudness?.integratedLUFS)
        tools.textBytes.append(contentsOf: Self.rangeText)
        appendFigure(loudness?.loudnessRangeLU)
        tools.textBytes.append(contentsOf: Self.truePeakText)
        appendFigure(loudness.map { $0.truePeakDBTP > LoudnessReading.floorDBTP ? $0.truePeakDBTP : nil } ?? nil)
        tools.textBytes.append(contentsOf: Self.truePeakUnit)
        let size = labels.size(ofCharacters: tools.textBytes)
        let first = geometry.barSlot(channel: 0)
        let y = min(geometry.height - size.height - 1, geometry.scaleBottom + max(2, (geometry.height - geometry.scaleBottom - size.height) / 2))
        labels.draw(characters: tools.textBytes, x: first.x + (last.maxX - first.x - size.width) / 2, y: y,
                    color: Self.labelColor, canvasWidth: width, canvasHeight: windowHeight)
    }

    /// One decimal, or "--" when there is nothing to read (under the gate).
    private func appendFigure(_ value: Double?) {
        if let value { DecimalText.append(value, places: 1, to: &tools.textBytes) } else { tools.textBytes.append(contentsOf: Self.noFigure) }
    }

    private static let integratedText: [UInt8] = Array("I ".utf8)
    private static let rangeText: [UInt8] = Array(" LUFS   LRA ".utf8)
    private static let truePeakText: [UInt8] = Array(" LU   TP ".utf8)
    private static let truePeakUnit: [UInt8] = Array(" dBTP".utf8)
    private static let noFigure: [UInt8] = Array("--".utf8)
    private static let twoSpaces: [UInt8] = Array("  ".utf8)
    private static let slash: [UInt8] = Array(" / ".utf8)

    /// Tick labels of the meter's dB scale ("-6", "-70"), made once.
    private static func tickText(_ level: Float) -> String {
        tickTexts[Int(-level.rounded())] ?? String(Int(level))
    }

    private static let tickTexts: [Int: String] = Dictionary(uniqueKeysWithValues: (0 ... 160).map { ($0, String(-$0)) })
}
