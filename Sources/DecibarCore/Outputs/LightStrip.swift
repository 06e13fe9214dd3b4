/// The bars (or the spectrum) on a strip of RGB pixels: the strip stands for the window's width,
/// each pixel shows the bar under it in the color the window gives that bar's tip, as bright as the
/// bar is tall. Silence is dark.
public struct LightStrip: Sendable {
    public let pixelCount: Int
    /// Three bytes a pixel, red, green, blue; rewritten by `paint`, never reallocated.
    public private(set) var bytes: [UInt8]

    public init(pixelCount: Int) {
        self.pixelCount = pixelCount
        bytes = Array(repeating: 0, count: pixelCount * 3)
    }

    /// Paints `values` (0...1, left to right as the window draws them) in `theme`'s colors.
    public mutating func paint(_ values: [Float], theme: BarTheme) {
        let count = values.count, pixels = pixelCount
        bytes.withUnsafeMutableBufferPointer { bytes in
            for pixel in 0 ..< pixels {
                let value = count == 0 ? 0 : Swift.min(1, Swift.max(0, values[pixel * count / pixels]))
                // The tip of a bar of this height: from the center color toward the tip color.
                func channel(_ center: Float, _ tip: Float) -> UInt8 {
                    let color = (center + (tip - center) * value) * value
                    return UInt8(Swift.min(255, Swift.max(0, (color * 255).rounded())))
                }
                bytes[pixel * 3] = channel(theme.center.red, theme.tip.red)
                bytes[pixel * 3 + 1] = channel(theme.center.green, theme.tip.green)
                bytes[pixel * 3 + 2] = channel(theme.center.blue, theme.tip.blue)
            }
        }
    }

    public var isDark: Bool { bytes.allSatisfy { $0 == 0 } }
}
