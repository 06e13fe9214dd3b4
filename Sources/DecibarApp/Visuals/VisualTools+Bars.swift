import DecibarCore
import DecibarRender

/// Bars as the level and spectrum pictures draw them: through the user's shader when one draws,
/// else as rectangles with the beat's flash and the caps.
extension VisualTools {
    /// How far toward white the bars' tips go when a beat is heard.
    static let beatFlash: Float = 0.45

    func drawBars(_ field: BarField, on canvas: VisualCanvas) {
        let values = field.values
        let (width, height, windowHeight) = (canvas.width, canvas.height, canvas.windowHeight)
        if let userShaders, userShaders.isDrawing {
            var drawn = values
            if display.caps {
                shaderValues.removeAll(keepingCapacity: true)
                for (value, cap) in zip(values, field.caps.values) { shaderValues.append(max(value, cap)) }
                drawn = shaderValues
            }
            shaderInputs.time = canvas.time
            shaderInputs.beat = (canvas.beatLevel, canvas.beatPhase, Float(canvas.beat.bpm))
            shaderInputs.level = values.isEmpty ? 0 : values.reduce(0, +) / Float(values.count)
            shaderPass?.draw(values: drawn, width: width, height: height, windowHeight: windowHeight, inputs: shaderInputs, theme: theme)
            shaderInputs.frame += 1
        } else if let radialRenderer {
            let shown = display.beatAccent && canvas.beatLevel > 0.01 ? theme.brightened(by: Self.beatFlash * canvas.beatLevel) : theme
            let radial = display.radialLayout
            radialRenderer.draw(count: values.count, value: { values[$0] }, layout: radial, width: width, height: height,
                                windowHeight: windowHeight, theme: shown)
            if display.caps {
                let caps = field.caps.values
                radialRenderer.draw(count: caps.count, value: { caps[$0] }, layout: radial, width: width, height: height,
                                    windowHeight: windowHeight, theme: theme, solid: MeterPicture.capColor, capThickness: max(2, Double(height) / 180))
            }
        } else {
            layout.rects(for: values, width: width, height: height, into: &barRects)
            // The accent: a flash toward white on the beat, as the bars lift (tall bars cannot).
            let shown = display.beatAccent && canvas.beatLevel > 0.01 ? theme.brightened(by: Self.beatFlash * canvas.beatLevel) : theme
            barRenderer.draw(barRects, width: width, height: height, theme: shown, windowHeight: windowHeight,
                             axis: layout.growthAxis(canvasHeight: height))
            if display.caps { drawCaps(field, width: width, height: height, windowHeight: windowHeight) }
        }
    }

    private func drawCaps(_ field: BarField, width: Int, height: Int, windowHeight: Int) {
        layout.rects(for: field.caps.values, width: width, height: height, into: &capRects)
        layout.capStrips(over: capRects, canvasHeight: height, into: &capStrips)
        shapes.removeAll(keepingCapacity: true)
        for strip in capStrips { shapes.append((strip, MeterPicture.capColor)) }
        rects.draw(shapes, canvasWidth: width, canvasHeight: windowHeight)
    }
}
