extension BarLayout {
    /// The peak caps' strips over the rects of the caps' levels (drawn as bars): above a bar that
    /// grows up, below one that grows down, both for centered bars; a 180th of the canvas thick
    /// (2 pixels at least). The window and the web page draw the same ones.
    public func capStrips(over capBars: [PixelRect], canvasHeight: Int, into strips: inout [PixelRect]) {
        let thickness = Swift.max(2, canvasHeight / 180)
        strips.removeAll(keepingCapacity: true)
        for rect in capBars {
            let above = PixelRect(x: rect.x, y: rect.y - thickness, width: rect.width, height: thickness)
            let below = PixelRect(x: rect.x, y: rect.y + rect.height, width: rect.width, height: thickness)
            switch orientation {
            case .center:
                strips.append(above)
                strips.append(below)
            case .bottom: strips.append(above)
            case .top: strips.append(below)
            }
        }
    }
}
