/// The edge a desktop layer's strip runs along (`display.anchor`); `fill` covers the monitor.
public enum LayerAnchor: String, CaseIterable, Sendable {
    case fill, top, bottom, left, right
}

/// Where a desktop layer goes on its monitor: all of it, or a strip along one edge, `thickness`
/// pixels across, `margin` pixels in from the edges.
public struct LayerPlacement: Sendable, Equatable {
    public var anchor: LayerAnchor
    public var thickness: Int
    public var margin: Int

    public init(anchor: LayerAnchor, thickness: Int, margin: Int) {
        self.anchor = anchor
        self.thickness = max(1, thickness)
        self.margin = max(0, margin)
    }

    /// The rectangle on a monitor at `monitor` (desktop coordinates), at least a pixel each way.
    public func frame(on monitor: PixelRect) -> PixelRect {
        let width = max(1, monitor.width - 2 * margin), height = max(1, monitor.height - 2 * margin)
        let left = monitor.x + margin, top = monitor.y + margin
        let across = min(thickness, anchor == .left || anchor == .right ? width : height)
        switch anchor {
        case .fill: return PixelRect(x: left, y: top, width: width, height: height)
        case .top: return PixelRect(x: left, y: top, width: width, height: across)
        case .bottom: return PixelRect(x: left, y: top + height - across, width: width, height: across)
        case .left: return PixelRect(x: left, y: top, width: across, height: height)
        case .right: return PixelRect(x: left + width - across, y: top, width: across, height: height)
        }
    }

    /// The edges a wlr-layer-shell surface is anchored to (top 1, bottom 2, left 4, right 8): a
    /// strip holds to its edge and both ends, the whole monitor to all four.
    public var layerShellEdges: UInt32 {
        let (top, bottom, left, right): (UInt32, UInt32, UInt32, UInt32) = (1, 2, 4, 8)
        switch anchor {
        case .fill: return top | bottom | left | right
        case .top: return top | left | right
        case .bottom: return bottom | left | right
        case .left: return left | top | bottom
        case .right: return right | top | bottom
        }
    }

    /// The size a wlr-layer-shell surface asks for: 0 along anchored edges (stretched between
    /// them, margins taken off by the compositor), the thickness across a strip.
    public var layerShellSize: (width: Int, height: Int) {
        switch anchor {
        case .fill: return (0, 0)
        case .top, .bottom: return (0, thickness)
        case .left, .right: return (thickness, 0)
        }
    }
}
