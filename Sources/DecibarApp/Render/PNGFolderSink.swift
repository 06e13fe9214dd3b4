import DecibarCore
import DecibarRender
import Foundation

/// A folder of PNG frames (`frame-000001.png` on), encoded through libpng as they are drawn.
final class PNGFolderSink: FrameSink {
    /// A partial folder: the frames go into it, and it is renamed once all are there.
    private let partial: PartialOutput
    private let width: Int
    private let height: Int
    private var frameNumber = 0

    var path: String { partial.destination }

    init(partial: PartialOutput, width: Int, height: Int) {
        self.partial = partial
        self.width = width
        self.height = height
    }

    /// Writes the frame as RGBA, flipped: OpenGL's rows count from the bottom, a PNG's from the top.
    func writeFrame(from canvas: OffscreenCanvas) throws(CommandFailure) {
        frameNumber += 1
        let png: [UInt8]
        do {
            png = try PNGImage.encode(rgba: canvas.readRGBA(), width: width, height: height, flipVertically: true)
        } catch {
            throw cannotWrite(error.description)
        }
        try partial.writeFile(named: String(format: "frame-%06d.png", frameNumber), png)
    }

    func finish() throws(CommandFailure) {
        try partial.commit()
    }

    func abandon() {
        partial.discard()
    }
}
