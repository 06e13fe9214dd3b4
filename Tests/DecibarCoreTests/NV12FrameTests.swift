import DecibarCore
import Testing

@Suite struct NV12FrameTests {
    /// Converts `rgba` (bottom row first) and returns the NV12 bytes.
    private func convert(_ rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: NV12Frame.byteCount(width: width, height: height))
        rgba.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { NV12Frame.convert(rgba: source, width: width, height: height, into: $0) }
        }
        return out
    }

    @Test func whiteRedAndBlackGiveTheLimitedRangeValues() {
        // One 2x2 block each: white is Y 235 with neutral chroma, black Y 16, pure red (82, 90, 240).
        #expect(convert([UInt8](repeating: 255, count: 16), width: 2, height: 2) == [235, 235, 235, 235, 128, 128])
        #expect(convert([0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255], width: 2, height: 2) == [16, 16, 16, 16, 128, 128])
        #expect(convert([255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255], width: 2, height: 2) == [82, 82, 82, 82, 90, 240])
    }

    @Test func rowsComeOutTopFirstAndChromaAveragesTheBlock() {
        // Bottom row (first in memory) black, top row white: the first luma row is the white one,
        // and the chroma of the block is the average, neutral grey.
        let rgba: [UInt8] = [0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255, 255, 255, 255, 255]
        #expect(convert(rgba, width: 2, height: 2) == [235, 235, 16, 16, 128, 128])
        // Blue on the left column, red on the right: U from the blue, V from the red, averaged.
        let halves: [UInt8] = [0, 0, 255, 255, 255, 0, 0, 255, 0, 0, 255, 255, 255, 0, 0, 255]
        // Averages: red 128, green 0, blue 128. U = (-38*128 + 112*128 + 128) >> 8 = 37, + 128;
        // V = (112*128 - 18*128 + 128) >> 8 = 47, + 128. Blue's luma 41, red's 82.
        #expect(convert(halves, width: 2, height: 2) == [41, 82, 41, 82, 165, 175])
    }

    @Test func vectorAndTailColumnsAgreeWithTheFormula() {
        // 34 columns: two sixteen-pixel steps and a tail of one block, over four rows.
        let width = 34, height = 4
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for index in 0 ..< width * height {
            rgba[index * 4] = UInt8((index * 37) % 256)
            rgba[index * 4 + 1] = UInt8((index * 91 + 13) % 256)
            rgba[index * 4 + 2] = UInt8((index * 53 + 200) % 256)
        }
        let out = convert(rgba, width: width, height: height)
        func pixel(_ x: Int, _ topRow: Int) -> (Int, Int, Int) {
            let base = ((height - 1 - topRow) * width + x) * 4
            return (Int(rgba[base]), Int(rgba[base + 1]), Int(rgba[base + 2]))
        }
        for row in 0 ..< height {
            for x in 0 ..< width {
                let (r, g, b) = pixel(x, row)
                #expect(Int(out[row * width + x]) == ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16, "luma at \(x), \(row)")
            }
        }
        for blockRow in 0 ..< height / 2 {
            for pair in 0 ..< width / 2 {
                var sums = (0, 0, 0)
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (r, g, b) = pixel(pair * 2 + dx, blockRow * 2 + dy)
                    sums = (sums.0 + r, sums.1 + g, sums.2 + b)
                }
                let (r, g, b) = ((sums.0 + 2) >> 2, (sums.1 + 2) >> 2, (sums.2 + 2) >> 2)
                let u = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128
                let v = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128
                let base = width * height + blockRow * width + pair * 2
                #expect(Int(out[base]) == u && Int(out[base + 1]) == v, "chroma of block \(pair), \(blockRow)")
            }
        }
    }
}
