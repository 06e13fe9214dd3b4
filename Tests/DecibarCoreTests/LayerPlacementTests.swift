import DecibarCore
import Testing

@Suite("Desktop layers: where they go on a monitor")
struct LayerPlacementTests {
    let monitor = PixelRect(x: 1920, y: 0, width: 2560, height: 1440)

    @Test("fill covers the monitor less the margin; a strip runs along its edge, height pixels across")
    func frames() {
        #expect(LayerPlacement(anchor: .fill, thickness: 120, margin: 0).frame(on: monitor) == monitor)
        #expect(LayerPlacement(anchor: .fill, thickness: 120, margin: 10).frame(on: monitor) == PixelRect(x: 1930, y: 10, width: 2540, height: 1420))
        #expect(LayerPlacement(anchor: .bottom, thickness: 120, margin: 0).frame(on: monitor) == PixelRect(x: 1920, y: 1320, width: 2560, height: 120))
        #expect(LayerPlacement(anchor: .top, thickness: 120, margin: 8).frame(on: monitor) == PixelRect(x: 1928, y: 8, width: 2544, height: 120))
        #expect(LayerPlacement(anchor: .left, thickness: 200, margin: 0).frame(on: monitor) == PixelRect(x: 1920, y: 0, width: 200, height: 1440))
        #expect(LayerPlacement(anchor: .right, thickness: 200, margin: 4).frame(on: monitor) == PixelRect(x: 4276, y: 4, width: 200, height: 1432))
    }

    @Test("a strip thicker than the monitor, or a margin wider than it, still leaves a pixel")
    func bounds() {
        #expect(LayerPlacement(anchor: .bottom, thickness: 5000, margin: 0).frame(on: monitor) == monitor)
        #expect(LayerPlacement(anchor: .fill, thickness: 1, margin: 2000).frame(on: monitor) == PixelRect(x: 3920, y: 2000, width: 1, height: 1))
        #expect(LayerPlacement(anchor: .top, thickness: 0, margin: -3) == LayerPlacement(anchor: .top, thickness: 1, margin: 0))
    }

    @Test("in layer-shell terms: a strip anchors to its edge and both ends with its thickness asked, fill to all four edges")
    func layerShell() {
        let edges = LayerAnchor.allCases.map { LayerPlacement(anchor: $0, thickness: 120, margin: 0).layerShellEdges }
        #expect(edges == [15, 13, 14, 7, 11])
        let sizes = LayerAnchor.allCases.map { LayerPlacement(anchor: $0, thickness: 120, margin: 6).layerShellSize }
        #expect(sizes.map(\.width) == [0, 0, 0, 120, 120])
        #expect(sizes.map(\.height) == [0, 120, 120, 0, 0])
    }

    @Test("every layer but window lets clicks through; top and overlay are see-through")
    func kinds() {
        #expect(DesktopLayer.allCases.filter(\.isClickThrough) == [.background, .bottom, .top, .overlay])
        #expect(DesktopLayer.allCases.filter(\.isAboveWindows) == [.top, .overlay])
    }
}
