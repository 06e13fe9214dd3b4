import Foundation

/// kitty's graphics protocol: a frame sent as 24-bit RGB under one image id and placement, so each
/// frame replaces the last rather than stacking, scaled by the terminal to `columns`×`rows` cells.
enum KittyImage {
    static let imageID = 4270
    /// Base64 bytes a chunk holds (the protocol's limit).
    static let chunk = 4096

    /// Appends the escape sequences of `rgba` (top row first) placed at the cursor over `columns`×`rows` cells.
    static func append(_ rgba: [UInt8], width: Int, height: Int, columns: Int, rows: Int, to out: inout [UInt8]) {
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<(width * height) {
                    target[pixel * 3] = source[pixel * 4]
                    target[pixel * 3 + 1] = source[pixel * 4 + 1]
                    target[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
            }
        }
        let encoded = Data(rgb).base64EncodedData()
        var offset = 0
        var first = true
        while offset < encoded.count || first {
            let end = min(encoded.count, offset + chunk)
            let more = end < encoded.count ? 1 : 0
            let keys = first ? "a=T,f=24,s=\(width),v=\(height),i=\(imageID),p=1,c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "m=\(more)"
            out.append(contentsOf: Array("\u{1B}_G\(keys);".utf8))
            out.append(contentsOf: encoded[offset..<end])
            out.append(contentsOf: [0x1B, UInt8(ascii: "\\")])
            offset = end
            first = false
        }
    }
}
