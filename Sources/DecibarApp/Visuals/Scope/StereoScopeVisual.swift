import DecibarCore
import DecibarRender

/// `--mode scope`: a goniometer of the last 50 ms (mid up, side across; the oldest points
/// faintest), with the phase correlation and the balance of the last 300 ms beside it.
final class StereoScopeVisual: Visual {
    static let mode = VisualModeDescription(name: "scope", summary: "a goniometer of the stereo image with its phase correlation and balance",
                                            settings: ScopeSettings.rows)

    private let tools: VisualTools
    private(set) var state: StereoScopeState
    private var points: [(PixelRect, Color)] = []

    init(tools: VisualTools) throws(RenderError) {
        self.tools = tools
        state = StereoScopeState(autoGain: tools.display[ScopeSettings.rows.autoGain])
        points.reserveCapacity(StereoScopeState.capacity * Self.maximumSteps)
    }

    var needs: VisualNeeds { [] }
    var isAtRest: Bool { false }
    var meanValue: Float { Float(max(0, state.reading.correlation)) }

    func update(_ frame: VisualFrame) { state.update(frame) }
    var wantsReleases: Bool { true }
    func released(_ buffer: AudioBuffer) { state.add(buffer) }

    /// The most points drawn between two samples.
    private static let maximumSteps = 8
    private static let frame = Color(red: 0.5, green: 0.55, blue: 0.65, alpha: 0.35)
    private static let track = Color(red: 0.5, green: 0.55, blue: 0.65, alpha: 0.25)
    private static let inPhase = Color(hex: 0x4ADE80)
    private static let outOfPhase = Color(hex: 0xF87171)

    func draw(_ canvas: VisualCanvas) {
        let labels = tools.labels
        let textHeight = labels?.pixelSize ?? 12
        let layout = StereoScopeLayout(width: canvas.width, height: canvas.height, textHeight: textHeight)
        let scope = layout.scope
        let theme = tools.theme
        tools.shapes.removeAll(keepingCapacity: true)
        // The square, its axes (mid up, side across) and the L and R diagonals' corners.
        tools.shapes.append((PixelRect(x: scope.x, y: scope.y, width: scope.width, height: 1), Self.frame))
        tools.shapes.append((PixelRect(x: scope.x, y: scope.y + scope.height - 1, width: scope.width, height: 1), Self.frame))
        tools.shapes.append((PixelRect(x: scope.x, y: scope.y, width: 1, height: scope.height), Self.frame))
        tools.shapes.append((PixelRect(x: scope.x + scope.width - 1, y: scope.y, width: 1, height: scope.height), Self.frame))
        tools.shapes.append((PixelRect(x: scope.x + scope.width / 2, y: scope.y, width: 1, height: scope.height), Self.track))
        tools.shapes.append((PixelRect(x: scope.x, y: scope.y + scope.height / 2, width: scope.width, height: 1), Self.track))
        // The meters' tracks, their center marks, and the readings as bars from the center.
        let reading = state.reading
        for (meter, value, color) in [(layout.correlation, reading.correlation, reading.correlation < 0 ? Self.outOfPhase : Self.inPhase),
                                      (layout.balance, reading.balance, theme.tip)] {
            tools.shapes.append((meter, Self.track))
            let center = StereoScopeLayout.x(of: 0, on: meter), at = StereoScopeLayout.x(of: value, on: meter)
            tools.shapes.append((PixelRect(x: min(center, at), y: meter.y, width: max(2, abs(at - center)), height: meter.height), color))
            tools.shapes.append((PixelRect(x: center, y: meter.y - 3, width: 1, height: meter.height + 6), Self.frame))
        }
        tools.rects.draw(tools.shapes, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        // The points: the newest brightest, in the theme's tip color over its center color.
        points.removeAll(keepingCapacity: true)
        // Between successive samples, points every few pixels: the trace reads as a line, not dust.
        let count = state.count, side = max(2, scope.width / 240)
        state.left.withUnsafeBufferPointer { left in
            state.right.withUnsafeBufferPointer { right in
                var previous = layout.point(left: left[0], right: right[0], gain: state.gain)
                for index in 0 ..< count {
                    let age = Float(count - 1 - index) / Float(max(1, count))
                    let point = layout.point(left: left[index], right: right[index], gain: state.gain)
                    var color = age < 0.15 ? theme.tip : theme.center
                    color.alpha = (1 - age) * (1 - age) * 0.8
                    let steps = min(Self.maximumSteps, max(1, max(abs(point.x - previous.x), abs(point.y - previous.y)) / side))
                    for step in 1 ... steps {
                        let x = previous.x + (point.x - previous.x) * step / steps, y = previous.y + (point.y - previous.y) * step / steps
                        points.append((PixelRect(x: x, y: y, width: side, height: side), color))
                    }
                    previous = point
                }
            }
        }
        tools.rects.draw(points, canvasWidth: canvas.width, canvasHeight: canvas.windowHeight)
        guard let labels else { return }
        let color = FrequencyLabels.color
        let (width, height) = (canvas.width, canvas.windowHeight)
        labels.draw("L", x: scope.x + 6, y: scope.y + 4, color: color, canvasWidth: width, canvasHeight: height)
        labels.draw("R", x: scope.x + scope.width - 6 - labels.size(of: "R").width, y: scope.y + 4, color: color, canvasWidth: width, canvasHeight: height)
        labels.draw("M", x: scope.x + scope.width / 2 + 4, y: scope.y + 4, color: color, canvasWidth: width, canvasHeight: height)
        labels.draw("S", x: scope.x + scope.width - 6 - labels.size(of: "S").width, y: scope.y + scope.height / 2 + 4, color: color,
                    canvasWidth: width, canvasHeight: height)
        drawMeterText("correlation ", value: reading.correlation, meter: layout.correlation, ends: ("-1", "+1"), labels: labels, width: width, height: height)
        drawMeterText("balance ", value: reading.balance, meter: layout.balance, ends: ("L", "R"), labels: labels, width: width, height: height)
        tools.textBytes.removeAll(keepingCapacity: true)
        tools.textBytes.append(contentsOf: Self.widthText)
        DecimalText.append(reading.width, places: 2, to: &tools.textBytes)
        labels.draw(characters: tools.textBytes, x: layout.balance.x, y: layout.balance.y + layout.balance.height + 2 * labels.pixelSize + 6,
                    color: color, canvasWidth: width, canvasHeight: height)
    }

    private static let widthText = Array("width ".utf8)

    /// "correlation +0.98" above a meter, and the words at its ends below it.
    private func drawMeterText(_ name: String, value: Double, meter: PixelRect, ends: (String, String), labels: TextRenderer, width: Int, height: Int) {
        let color = FrequencyLabels.color
        tools.textBytes.removeAll(keepingCapacity: true)
        tools.textBytes.append(contentsOf: name.utf8)
        if value >= 0 { tools.textBytes.append(UInt8(ascii: "+")) }
        DecimalText.append(value, places: 2, to: &tools.textBytes)
        labels.draw(characters: tools.textBytes, x: meter.x, y: meter.y - labels.pixelSize - 6, color: color, canvasWidth: width, canvasHeight: height)
        let below = meter.y + meter.height + 3
        labels.draw(ends.0, x: meter.x, y: below, color: color, canvasWidth: width, canvasHeight: height)
        labels.draw(ends.1, x: meter.x + meter.width - labels.size(of: ends.1).width, y: below, color: color, canvasWidth: width, canvasHeight: height)
    }
}
