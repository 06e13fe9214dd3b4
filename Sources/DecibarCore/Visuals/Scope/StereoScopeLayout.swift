/// Where the stereo scope's parts go: the goniometer in a square at the left (as tall as the
/// picture), the correlation and balance meters beside it, one above the other.
public struct StereoScopeLayout: Sendable, Equatable {
    public let scope: PixelRect
    public let correlation: PixelRect
    public let balance: PixelRect

    public init(width: Int, height: Int, textHeight: Int) {
        let margin = max(4, height / 40)
        let side = max(1, min(height - 2 * margin, width * 3 / 5))
        scope = PixelRect(x: margin, y: (height - side) / 2, width: side, height: side)
        let panelX = scope.x + side + 3 * margin
        let panelWidth = max(1, width - panelX - 2 * margin)
        let meterHeight = max(6, textHeight)
        let middle = height / 2
        correlation = PixelRect(x: panelX, y: middle - 2 * textHeight - meterHeight, width: panelWidth, height: meterHeight)
        balance = PixelRect(x: panelX, y: middle + 2 * textHeight, width: panelWidth, height: meterHeight)
    }

    /// The pixel a pair of samples plots at: mid (L+R)/2 up, side (R-L)/2 to the right, so mono
    /// is a vertical line, opposite sides a horizontal one, left alone the upper-left diagonal.
    /// `gain` 1 puts full scale on the square's edge.
    public func point(left: Float, right: Float, gain: Float) -> (x: Int, y: Int) {
        let half = Float(scope.width) / 2, last = scope.width - 1
        let x = (right - left) / 2 * gain, y = (left + right) / 2 * gain
        let column = min(last, max(0, Int((half * (1 + x)).rounded(.down))))
        let row = min(last, max(0, Int((half * (1 - y)).rounded(.down))))
        return (scope.x + column, scope.y + row)
    }

    /// The x of a value -1...+1 on a meter.
    public static func x(of value: Double, on meter: PixelRect) -> Int {
        meter.x + Int(((max(-1, min(1, value)) + 1) / 2 * Double(meter.width - 1)).rounded())
    }
}
