import DecibarCore
import DecibarRender

/// Bars as the level and spectrum pictures draw them: through the user's shader when one draws,
/// else as rectangles with the beat's flash and the caps.
extension VisualTools {
    /// How far toward white the bars' tips go when a beat is heard.
    static let beatFlash: Float = 0.45

    /// The user's shader over the picture's area: at its scale, timed where the scale follows it.
    private func drawUserShader(values: [Float], on canvas: VisualCanvas) {
        guard let shaderPass else { return }
        let (width, height, windowHeight) = (canvas.width, canvas.height, canvas.windowHeight)
        if let timer = shaderTimer, let period = canvas.displayPeriod, let drawing = timer.takeResult() {
            dynamicShaderScale?.observe(drawing: drawing, period: period, now: canvas.time)
        }
        // A render (no frame interval) draws every pixel whatever the setting says it may.
        if let dynamic = dynamicShaderScale { shaderScale = canvas.displayPeriod == nil ? 1 : dynamic.scale }
        guard shaderScale < 1, let scaledPass,
              let drawn = try? scaledPass.begin(width: Int((Double(width) * shaderScale).rounded()),
                                                 height: Int((Double(height) * shaderScale).rounded())) else {
            shaderTimer?.begin()
            shaderPass.draw(values: values, width: width, height: height, windowHeight: windowHeight, inputs: shaderInputs, theme: theme)
            shaderTimer?.end()
            return
        }
        shaderTimer?.begin()
        shaderPass.draw(values: values, width: drawn.width, height: drawn.height, windowHeight: drawn.height, inputs: shaderInputs, theme: theme)
        shaderTimer?.end()
        scaledPass.finish(into: PixelRect(x: 0, y: 0, width: width, height: height), canvasWidth: width, canvasHeight: windowHeight)
    }

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
            drawUserShader(values: drawn, on: canvas)
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
