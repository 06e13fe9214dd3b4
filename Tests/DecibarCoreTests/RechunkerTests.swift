import DecibarCore
import Testing

@Suite("Re-chunking into 256-frame buffers")
struct RechunkerTests {
    /// Feeds deliveries of the given sizes (in frames) of a counting signal; returns the buffers.
    func rechunk(deliveries: [Int], channels: Int = 2) -> (buffers: [AudioBuffer], pending: Int, total: Int) {
        var rechunker = Rechunker(channelCount: channels, sampleRate: 48000)
        var buffers: [AudioBuffer] = []
        var next: Float = 0
        for frames in deliveries {
            let samples = (0 ..< frames * channels).map { _ in defer { next += 1 }; return next }
            samples.withUnsafeBufferPointer { rechunker.append($0) { buffers.append($0) } }
        }
        return (buffers, rechunker.pendingFrameCount, deliveries.reduce(0, +))
    }

    @Test("deliveries of 240, 255 and 1000 frames become exact 256-frame buffers with no sample lost",
          arguments: [[240], [255], [1000], [240, 255, 1000], [255, 255, 255, 255, 255, 255, 255, 255]])
    func exactBuffers(deliveries: [Int]) {
        let (buffers, pending, total) = rechunk(deliveries: deliveries)
        #expect(buffers.count == total / 256)
        #expect(pending == total % 256)
        var expected: Float = 0
        for (index, buffer) in buffers.enumerated() {
            #expect(buffer.frameCount == 256)
            #expect(buffer.startFrame == Int64(index * 256))
            buffer.withSamples { samples in
                #expect(samples.count == 512)
                for sample in samples {
                    #expect(sample == expected)
                    expected += 1
                }
            }
        }
    }

    @Test("flush hands over the partial buffer, so a file's tail is not lost")
    func flushTail() {
        var rechunker = Rechunker(channelCount: 1, sampleRate: 48000)
        var buffers: [AudioBuffer] = []
        let samples = [Float](repeating: 0.5, count: 300)
        samples.withUnsafeBufferPointer { rechunker.append($0) { buffers.append($0) } }
        rechunker.flush { buffers.append($0) }
        #expect(buffers.map(\.frameCount) == [256, 44])
        #expect(buffers[1].startFrame == 256)
    }

    @Test("a hole becomes silence and keeps time in place")
    func holes() {
        var rechunker = Rechunker(channelCount: 2, sampleRate: 48000)
        var buffers: [AudioBuffer] = []
        let ones = [Float](repeating: 1, count: 200 * 2)
        ones.withUnsafeBufferPointer { rechunker.append($0) { buffers.append($0) } }
        rechunker.appendSilence(frames: 100) { buffers.append($0) }
        #expect(buffers.count == 1)
        #expect(buffers[0][199, 1] == 1)
        #expect(buffers[0][200, 0] == 0)
        #expect(rechunker.pendingFrameCount == 44)
        #expect(rechunker.framesReceived == 300)
    }

    @Test("each buffer's capture time is worked back from its delivery")
    func captureTimes() {
        var rechunker = Rechunker(channelCount: 1, sampleRate: 48000)
        var buffers: [AudioBuffer] = []
        // 1000 frames arriving at t = 10 s: buffers end 744, 488 and 232 frames before the end.
        let samples = [Float](repeating: 0, count: 1000)
        samples.withUnsafeBufferPointer { rechunker.append($0, deliveredAt: 10) { buffers.append($0) } }
        #expect(buffers.count == 3)
        for (buffer, framesAfter) in zip(buffers, [744.0, 488, 232]) {
            #expect(abs(buffer.captureTime - (10 - framesAfter / 48000)) < 1e-12)
        }
        // The 232 pending frames complete with the next delivery of 100 frames at t = 10.01 s.
        samples.withUnsafeBufferPointer { rechunker.append(UnsafeBufferPointer(rebasing: $0[0 ..< 100]), deliveredAt: 10.01) { buffers.append($0) } }
        #expect(buffers.count == 4)
        #expect(abs(buffers[3].captureTime - (10.01 - 76.0 / 48000)) < 1e-12)
        #expect(buffers[3].sampleRate == 48000)
    }

    @Test("the buffer type carries its samples inline")
    func inlineStorage() {
        #expect(MemoryLayout<AudioBuffer>.size >= AudioBuffer.sampleCapacity * MemoryLayout<Float>.size)
    }
}
