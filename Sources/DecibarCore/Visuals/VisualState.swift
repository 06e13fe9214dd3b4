/// A picture's state without drawing it: moved on each display frame by the frame's audio and
/// `dt`, then drawn by the window, the render, a web page or lights. Tests drive it with exact
/// numbers.
///
/// `update` allocates nothing once the canvas is settled: every array is kept and reused.
public protocol VisualState {
    mutating func update(_ frame: VisualFrame)
    /// True when nothing on screen would change: a window then skips drawing.
    var isAtRest: Bool { get }
    /// 0...1: how full the picture is, for the latency benchmarks' frame log.
    var meanValue: Float { get }
}

/// A picture drawn as a row of bars (levels, spectrum): lights and pages can show it too.
public protocol BarVisualState: VisualState {
    var field: BarField { get }
    /// The bands the bars show, where they are frequencies.
    var bands: SpectrumBands? { get }
}

extension BarVisualState {
    public var isAtRest: Bool { field.isAtRest }
    public var meanValue: Float { field.meanValue }
    public var bands: SpectrumBands? { nil }
}
