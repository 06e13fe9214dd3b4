import DecibarCore
import DecibarRender
import Foundation

extension Visualizer {
    /// Draws into the top `height` pixels of a `width`×`windowHeight` window (already cleared).
    func draw(width: Int, height: Int, windowHeight: Int, now: Double) {
        switch mode {
        case .bars, .spectrum:
            let values = smoother.values
            if let userShaders, userShaders.isDrawing {
                let shaderValues = options.caps ? zip(values, caps.values).map { max($0, $1) } : values
                shaderPass?.draw(values: shaderValues, width: width, height: height, windowHeight: windowHeight,
                                 time: now - startTime, theme: theme)
            } else {
                let bars = layout.rects(for: values, width: width, height: height)
                barRenderer.draw(bars, width: width, height: height, theme: theme, windowHeight: windowHeight,
                                 axis: layout.growthAxis(canvasHeight: height))
                if options.caps { drawCaps(width: width, height: height, windowHeight: windowHeight) }
            }
            if mode == .spectrum { drawFrequencyLabels(width: width, height: height, windowHeight: windowHeight) }
        case .meter:
            drawMeter(width: width, height: height, windowHeight: windowHeight)
        }
        if let message = userShaders?.error { drawError(message, width: width, windowHeight: windowHeight) }
        labels?.endFrame()
    }

    private var capColor: Color { Color(red: 1, green: 1, blue: 1, alpha: 0.85) }

    private func drawCaps(width: Int, height: Int, windowHeight: Int) {
        let capRects = layout.rects(for: caps.values, width: width, height: height)
        let thickness = max(2, height / 180)
        var shapes: [(PixelRect, Color)] = []
        for rect in capRects {
            switch layout.orientation {
            case .center:
                shapes.append((PixelRect(x: rect.x, y: rect.y - thickness, width: rect.width, height: thickness), capColor))
                shapes.append((PixelRect(x: rect.x, y: rect.y + rect.height, width: rect.width, height: thickness), capColor))
            case .bottom:
                shapes.append((PixelRect(x: rect.x, y: rect.y - thickness, width: rect.width, height: thickness), capColor))
            case .top:
                shapes.append((PixelRect(x: rect.x, y: rect.y + rect.height, width: rect.width, height: thickness), capColor))
            }
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
    }

    /// Frequencies under the bands that hold them, on both halves, in the margin the bars leave.
    private func drawFrequencyLabels(width: Int, height: Int, windowHeight: Int) {
        guard let labels, let analyzer else { return }
        let bands = analyzer.bands
        let barRects = layout.rects(for: smoother.values, width: width, height: height)
        guard barRects.count == 2 * bands.count else { return }
        let margin = (height - layout.maximumHeight(canvasHeight: height)) / 2
        let y = layout.orientation == .top ? max(0, margin - labels.pixelSize - 2) : height - margin + 2
        let color = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.8)
        var lastRight = [Int.min, Int.min]
        for frequency in [50.0, 100, 200, 500, 1000, 2000, 5000, 10_000] {
            guard let band = bands.band(containing: frequency) else { continue }
            let text = frequency >= 1000 ? "\(Int(frequency / 1000))k" : "\(Int(frequency))"
            let size = labels.size(of: text)
            let positions = StereoSpectrum.positions(ofBand: band, bandCount: bands.count, lowsAtEdges: options.lowsAtEdges)
            for (side, position) in [positions.left, positions.right].enumerated() {
                let rect = barRects[position]
                let x = min(max(0, rect.x + rect.width / 2 - size.width / 2), width - size.width)
                // Keep labels apart where bands are narrow, also across the middle.
                guard side == 1 ? x > lastRight[1] + 4 : (lastRight[0] == Int.min || x + size.width + 4 < lastRight[0]) else { continue }
                labels.draw(text, x: x, y: y, color: color, canvasWidth: width, canvasHeight: windowHeight)
                if side == 0 && lastRight[0] == Int.min && !options.lowsAtEdges { lastRight[1] = max(lastRight[1], x + size.width) }
                lastRight[side] = side == 1 ? x + size.width : x
            }
        }
    }

    private func drawMeter(width: Int, height: Int, windowHeight: Int) {
        let geometry = MeterLayout(width: width, height: height, channelCount: meterChannels, floorDB: Self.meterFloorDB)
        var shapes: [(PixelRect, Color)] = []
        var levelBars: [PixelRect] = []
        let tick = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.25)
        for level in geometry.visibleTicks {
            shapes.append((PixelRect(x: geometry.labelWidth, y: geometry.y(forDB: level), width: width - geometry.labelWidth - 4, height: 1), tick))
        }
        for channel in 0 ..< meterChannels {
            let reading = meter.reading(channel: channel)
            shapes.append((geometry.barSlot(channel: channel), theme.center.withAlpha(0.12)))
            shapes.append((geometry.bar(channel: channel, level: reading.peakDB), theme.tip.withAlpha(0.35)))
            levelBars.append(geometry.bar(channel: channel, level: reading.rmsDB))
            shapes.append((geometry.lamp(channel: channel),
                           reading.isClipping ? Color(hex: 0xFF2A2A) : Color(hex: 0x4A1414)))
        }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
        barRenderer.draw(levelBars, width: width, height: height, theme: theme, windowHeight: windowHeight,
                         axis: (Double(geometry.scaleBottom), Double(geometry.scaleBottom - geometry.scaleTop)))
        var caps: [(PixelRect, Color)] = []
        for channel in 0 ..< meterChannels {
            let reading = meter.reading(channel: channel)
            if reading.holdDB > Self.meterFloorDB { caps.append((geometry.cap(channel: channel, level: reading.holdDB), capColor)) }
        }
        rects.draw(caps, canvasWidth: width, canvasHeight: windowHeight)
        guard let labels else { return }
        let color = Color(red: 0.85, green: 0.87, blue: 0.93, alpha: 0.85)
        var lastLabelBottom = Int.min
        for level in geometry.visibleTicks {
            let text = level == 0 ? "0 dB" : "\(Int(level))"
            let size = labels.size(of: text)
            let y = geometry.y(forDB: level) - size.height / 2
            // On a short window the labels near 0 dB would overlap: skip those that would.
            guard y >= lastLabelBottom else { continue }
            labels.draw(text, x: geometry.labelWidth - size.width - 6, y: y, color: color, canvasWidth: width, canvasHeight: windowHeight)
            lastLabelBottom = y + size.height
        }
        let names = meterChannels == 1 ? ["M"] : ["L", "R"]
        for channel in 0 ..< meterChannels {
            let slot = geometry.barSlot(channel: channel)
            let reading = meter.reading(channel: channel)
            let text = "\(names[channel])  \(String(format: "%.1f", reading.rmsDB)) / \(String(format: "%.1f", reading.peakDB))"
            let size = labels.size(of: text)
            labels.draw(text, x: slot.x + (slot.width - size.width) / 2, y: geometry.lamp(channel: channel).y - size.height - 2,
                        color: color, canvasWidth: width, canvasHeight: windowHeight)
        }
    }

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
