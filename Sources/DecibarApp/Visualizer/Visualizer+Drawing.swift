import DecibarCore
import DecibarRender

extension Visualizer {
    /// Draws into the top `height` pixels of a `width`×`windowHeight` window (already cleared).
    public func draw(width: Int, height: Int, windowHeight: Int, now: Double) {
        switch state.mode {
        case .bars, .spectrum:
            let values = state.barValues
            if let userShaders, userShaders.isDrawing {
                var drawn = values
                if options.caps {
                    shaderValues.removeAll(keepingCapacity: true)
                    for (value, cap) in zip(values, state.caps.values) { shaderValues.append(max(value, cap)) }
                    drawn = shaderValues
                }
                shaderPass?.draw(values: drawn, width: width, height: height, windowHeight: windowHeight,
                                 time: now - startTime, beat: (state.beatLevel, state.beatPhase, Float(state.beat.bpm)), theme: theme)
            } else {
                layout.rects(for: values, width: width, height: height, into: &barRects)
                // The accent: a flash toward white on the beat, as the bars lift (tall bars cannot).
                let shown = options.beatAccent && state.beatLevel > 0.01 ? theme.brightened(by: Self.beatFlash * state.beatLevel) : theme
                barRenderer.draw(barRects, width: width, height: height, theme: shown, windowHeight: windowHeight,
                                 axis: layout.growthAxis(canvasHeight: height))
                if options.caps { drawCaps(width: width, height: height, windowHeight: windowHeight) }
            }
            if state.mode == .spectrum { drawFrequencyLabels(width: width, height: height, windowHeight: windowHeight) }
        case .meter:
            drawMeter(width: width, height: height, windowHeight: windowHeight)
        }
        if let message = userShaders?.error { drawError(message, width: width, windowHeight: windowHeight) }
        labels?.endFrame()
    }

    /// How far toward white the bars' tips go when a beat is heard.
    static let beatFlash: Float = 0.45

    private var capColor: Color { MeterPicture.capColor }
    private var labelColor: Color { MeterPicture.labelColor }

    private func drawCaps(width: Int, height: Int, windowHeight: Int) {
        layout.rects(for: state.caps.values, width: width, height: height, into: &capRects)
        let thickness = max(2, height / 180)
        shapes.removeAll(keepingCapacity: true)
        for rect in capRects {
            let above = PixelRect(x: rect.x, y: rect.y - thickness, width: rect.width, height: thickness)
            let below = PixelRect(x: rect.x, y: rect.y + rect.height, width: rect.width, height: thickness)
            switch layout.orientation {
            case .center:
                shapes.append((above, capColor))
                shapes.append((below, capColor))
            case .bottom: shapes.append((above, capColor))
            case .top: shapes.append((below, capColor))
            }
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
    }

    /// Frequencies under the bands that hold them, on both halves, in the margin the bars leave.
    private func drawFrequencyLabels(width: Int, height: Int, windowHeight: Int) {
        guard let labels, let bands = state.analyzer?.bands else { return }
        let y = FrequencyLabels.y(height: height, maximumBarHeight: layout.maximumHeight(canvasHeight: height),
                                  orientation: layout.orientation, textHeight: labels.pixelSize)
        // barRects holds this frame's bars (drawn just before).
        FrequencyLabels.place(bandCount: bands.count, band: { bands.band(containing: $0) }, barRects: barRects, width: width,
                              lowsAtEdges: options.lowsAtEdges, textWidth: { labels.size(of: $0).width }) { text, x in
            labels.draw(text, x: x, y: y, color: FrequencyLabels.color, canvasWidth: width, canvasHeight: windowHeight)
        }
    }

    private func drawMeter(width: Int, height: Int, windowHeight: Int) {
        let channels = state.meterChannels
        let meter = state.meter
        let geometry = MeterLayout(width: width, height: height, channelCount: channels, loudnessBarCount: 2,
                                   scale: options.meterScale)
        meterPicture.build(geometry, meter: meter, loudness: state.loudness, targets: options.loudnessTargets,
                           theme: theme, floorDB: VisualizerState.meterFloorDB)
        shapes.removeAll(keepingCapacity: true)
        for shape in meterPicture.under { shapes.append(shape) }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
        barRenderer.draw(meterPicture.bars, width: width, height: height, theme: theme, windowHeight: windowHeight,
                         axis: meterPicture.axis)
        shapes.removeAll(keepingCapacity: true)
        for shape in meterPicture.over { shapes.append(shape) }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
        guard let labels else { return }
        var lastLabelBottom = Int.min
        for level in geometry.visibleTicks {
            let text = level == 0 ? (options.meterScale == .lufs ? "LUFS" : "0 dB") : Self.tickText(level)
            let size = labels.size(of: text)
            let y = geometry.y(forDB: level) - size.height / 2
            // On a short window the labels near 0 dB would overlap: skip those that would.
            guard y >= lastLabelBottom else { continue }
            labels.draw(text, x: geometry.labelWidth - size.width - 6, y: y, color: labelColor, canvasWidth: width, canvasHeight: windowHeight)
            lastLabelBottom = y + size.height
        }
        // "L  -21.1 / -18.1": the figures change every frame, so they are drawn glyph by glyph.
        for channel in 0 ..< channels {
            let slot = geometry.barSlot(channel: channel)
            let reading = meter.reading(channel: channel)
            textBytes.removeAll(keepingCapacity: true)
            textBytes.append(channels == 1 ? UInt8(ascii: "M") : channel == 0 ? UInt8(ascii: "L") : UInt8(ascii: "R"))
            textBytes.append(contentsOf: Self.twoSpaces)
            DecimalText.append(Double(reading.rmsDB), places: 1, to: &textBytes)
            textBytes.append(contentsOf: Self.slash)
            DecimalText.append(Double(reading.peakDB), places: 1, to: &textBytes)
            let size = labels.size(ofCharacters: textBytes)
            labels.draw(characters: textBytes, x: slot.x + (slot.width - size.width) / 2,
                        y: geometry.lamp(channel: channel).y - size.height - 2, color: labelColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        drawLoudnessText(geometry: geometry, labels: labels, windowHeight: windowHeight)
    }

    private static let targetColor = MeterPicture.targetColor

    /// "M -23.0" and "S -23.1" over the loudness bars, target labels beside their marks, and
    /// "I -23.0 LUFS   LRA 4.2 LU   TP -1.0 dBTP" under the meter: built glyph by glyph.
    private func drawLoudnessText(geometry: MeterLayout, labels: TextRenderer, windowHeight: Int) {
        let loudness = state.loudness
        let width = geometry.width
        for index in 0 ..< 2 {
            let value = index == 0 ? loudness?.momentaryLUFS : loudness?.shortTermLUFS
            let slot = geometry.loudnessSlot(index)
            textBytes.removeAll(keepingCapacity: true)
            textBytes.append(index == 0 ? UInt8(ascii: "M") : UInt8(ascii: "S"))
            textBytes.append(contentsOf: Self.twoSpaces)
            appendFigure(value)
            let size = labels.size(ofCharacters: textBytes)
            labels.draw(characters: textBytes, x: slot.x + (slot.width - size.width) / 2,
                        y: geometry.lamp(channel: 0).y - size.height - 2, color: labelColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        let last = geometry.loudnessSlot(1)
        for target in options.loudnessTargets {
            textBytes.removeAll(keepingCapacity: true)
            DecimalText.append(target, places: 0, to: &textBytes)
            let size = labels.size(ofCharacters: textBytes)
            labels.draw(characters: textBytes, x: min(width - size.width, last.maxX + 8),
                        y: geometry.y(forDB: Float(target)) - size.height / 2, color: Self.targetColor,
                        canvasWidth: width, canvasHeight: windowHeight)
        }
        textBytes.removeAll(keepingCapacity: true)
        textBytes.append(contentsOf: Self.integratedText)
        appendFigure(loudness?.integratedLUFS)
        textBytes.append(contentsOf: Self.rangeText)
        appendFigure(loudness?.loudnessRangeLU)
        textBytes.append(contentsOf: Self.truePeakText)
        appendFigure(loudness.map { $0.truePeakDBTP > LoudnessReading.floorDBTP ? $0.truePeakDBTP : nil } ?? nil)
        textBytes.append(contentsOf: Self.truePeakUnit)
        let size = labels.size(ofCharacters: textBytes)
        let first = geometry.barSlot(channel: 0)
        let y = min(geometry.height - size.height - 1, geometry.scaleBottom + max(2, (geometry.height - geometry.scaleBottom - size.height) / 2))
        labels.draw(characters: textBytes, x: first.x + (last.maxX - first.x - size.width) / 2, y: y,
                    color: labelColor, canvasWidth: width, canvasHeight: windowHeight)
    }

    /// One decimal, or "--" when there is nothing to read (under the gate).
    private func appendFigure(_ value: Double?) {
        if let value { DecimalText.append(value, places: 1, to: &textBytes) } else { textBytes.append(contentsOf: Self.noFigure) }
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

    /// A shader's compiler message, in a band at the top of the window.
    private func drawError(_ message: String, width: Int, windowHeight: Int) {
        guard let labels else { return }
        let text = message.count > 160 ? String(message.prefix(157)) + "..." : message
        let size = labels.size(of: text)
        rects.draw([(PixelRect(x: 0, y: 0, width: width, height: size.height + 8), Color(hex: 0x3A0A0A, alpha: 0.9))],
                   canvasWidth: width, canvasHeight: windowHeight)
        labels.draw(text, x: 6, y: 4, color: Color(hex: 0xFF8080), canvasWidth: width, canvasHeight: windowHeight)
    }
}
