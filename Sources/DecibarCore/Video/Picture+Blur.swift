extension Picture {
    /// A copy averaged down to `longerSide` pixels on its longer side (itself when already smaller).
    public func shrunk(toLongerSide longerSide: Int) -> Picture {
        let scale = Double(longerSide) / Double(max(width, height))
        guard scale < 1, width > 0, height > 0 else { return self }
        let newWidth = max(1, Int((Double(width) * scale).rounded())), newHeight = max(1, Int((Double(height) * scale).rounded()))
        var result = Picture(width: newWidth, height: newHeight, time: time, duration: duration)
        for row in 0 ..< newHeight {
            let top = row * height / newHeight, bottom = max(top + 1, (row + 1) * height / newHeight)
            for column in 0 ..< newWidth {
                let left = column * width / newWidth, right = max(left + 1, (column + 1) * width / newWidth)
                let area = (bottom - top) * (right - left)
                for channel in 0 ..< 4 {
                    var total = 0
                    for y in top ..< bottom {
                        for x in left ..< right { total += Int(pixels[(y * width + x) * 4 + channel]) }
                    }
                    result.pixels[(row * newWidth + column) * 4 + channel] = UInt8((total + area / 2) / area)
                }
            }
        }
        return result
    }

    /// A soft copy for a backdrop: every channel box-blurred across and down `passes` times (three
    /// come close to a Gaussian), `radius` pixels each side, the edges held.
    public func blurred(radius: Int, passes: Int = 3) -> Picture {
        var result = self
        guard width > 0, height > 0, radius > 0 else { return result }
        var scratch = [Int](repeating: 0, count: max(width, height) + 1)
        for _ in 0 ..< passes {
            for row in 0 ..< height {
                Self.boxBlur(&result.pixels, start: row * width * 4, step: 4, count: width, radius: radius, sums: &scratch)
            }
            for column in 0 ..< width {
                Self.boxBlur(&result.pixels, start: column * 4, step: width * 4, count: height, radius: radius, sums: &scratch)
            }
        }
        return result
    }

    /// One line of `count` pixels, `step` bytes apart: each channel the mean of the 2·radius+1
    /// pixels around it, those past an end taken as the end pixel.
    private static func boxBlur(_ pixels: inout [UInt8], start: Int, step: Int, count: Int, radius: Int, sums: inout [Int]) {
        let window = 2 * radius + 1
        for channel in 0 ..< 4 {
            func value(_ index: Int) -> Int { Int(pixels[start + min(count - 1, max(0, index)) * step + channel]) }
            // A running total: sums[i] holds values i - radius through i + radius.
            var total = 0
            for index in -radius ... radius { total += value(index) }
            for index in 0 ..< count {
                sums[index] = total
                total += value(index + radius + 1) - value(index - radius)
            }
            for index in 0 ..< count {
                pixels[start + index * step + channel] = UInt8((sums[index] + window / 2) / window)
            }
        }
    }
}
