import RealModule

/// Bars around a circle (`--layout radial`): bar i of n sits at angle rotation + 360°·(i + ½)/n,
/// clockwise from the top, so the circle's halves mirror each other as the bars' halves do (in
/// spectrum mode: the left channel on the left, the right on the right). Bars grow outward from the
/// inner radius, each a wedge of its slot less the gap; the middle stays empty (or holds the cover).
public struct RadialLayout: Sendable, Equatable {
    /// The inner radius as a share of the picture's width.
    public var innerRadius: Double
    /// The share of each bar's slot (its angle) left empty.
    public var gap: Double
    /// Degrees clockwise the first bar moves from the top.
    public var rotation: Double
    /// Share of the picture's shorter side kept free around the circle.
    public static let margin = 0.04

    public init(innerRadius: Double = 0.12, gap: Double = 0.3, rotation: Double = 0) {
        self.innerRadius = innerRadius
        self.gap = gap
        self.rotation = rotation
    }

    /// The circle on a `width`×`height` canvas: its center, the radius bars start at and the
    /// furthest a tip reaches (the inner radius shrinks on a canvas too short for it).
    public func circle(width: Int, height: Int) -> (x: Double, y: Double, inner: Double, outer: Double) {
        let outer = Double(min(width, height)) / 2 * (1 - 2 * Self.margin)
        let inner = min(innerRadius * Double(width), outer * 0.6)
        return (Double(width) / 2, Double(height) / 2, inner, outer)
    }

    /// Bar `index` of `count` at `value` (0...1): its angle (radians, clockwise from the top), the
    /// radius it starts at, its length and its angular width. A bar at 0 keeps `minimumLength` pixels.
    public func bar(_ index: Int, of count: Int, value: Float, width: Int, height: Int, minimumLength: Double = 2)
        -> (angle: Double, inner: Double, length: Double, angularWidth: Double) {
        let circle = circle(width: width, height: height)
        let slot = 2 * Double.pi / Double(max(1, count))
        let angle = rotation * Double.pi / 180 + slot * (Double(index) + 0.5)
        let clamped = Double(min(1, max(0, value.isNaN ? 0 : value)))
        let length = max(minimumLength, clamped * (circle.outer - circle.inner))
        return (angle, circle.inner, length, slot * (1 - gap))
    }

    /// The pixel of a point `radius` from the center at `angle` (clockwise from the top; y down).
    public func point(angle: Double, radius: Double, width: Int, height: Int) -> (x: Double, y: Double) {
        let circle = circle(width: width, height: height)
        return (circle.x + radius * Double.sin(angle), circle.y - radius * Double.cos(angle))
    }
}
