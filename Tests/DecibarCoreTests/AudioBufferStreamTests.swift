import DecibarCore
import Synchronization
import Testing

@Suite("Handing buffers over one batch per delivery")
struct AudioBufferStreamTests {
    /// Buffer `index` of a counting signal: sample k of it is `index * 512 + k`.
    static func buffer(_ index: Int, channels: Int = 2) -> AudioBuffer {
        let samples = (0 ..< 256 * channels).map { Float(index * 256 * channels + $0) }
        return AudioBuffer(interleaved: samples, channelCount: channels, sampleRate: 48000, startFrame: Int64(index * 256))
    }

    static func read(_ stream: AudioBufferStream) async -> [AudioBuffer] {
        var received: [AudioBuffer] = []
        for await buffer in stream { received.append(buffer) }
        return received
    }

    @Test("every buffer arrives whole and in order, whatever the sizes of the deliveries",
          arguments: [[1], [3, 1, 7], [32], [33], [100, 1, 64]])
    func inOrder(deliveries: [Int]) async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 256)
        var next = 0
        for size in deliveries {
            for _ in 0 ..< size {
                handOver.add(Self.buffer(next))
                next += 1
            }
            handOver.send()
        }
        handOver.finish()
        let received = await Self.read(stream)
        #expect(received.count == next)
        for (index, buffer) in received.enumerated() {
            #expect(buffer.startFrame == Int64(index * 256))
            #expect(buffer.frameCount == 256)
            buffer.withSamples { samples in
                #expect(samples.count == 512)
                #expect(samples.first == Float(index * 512))
                #expect(samples.last == Float(index * 512 + 511))
            }
        }
        #expect(stream.pool.deliveredCount == next)
        #expect(stream.pool.droppedCount == 0)
    }

    @Test("the buffers of a delivery reach the reader only when the delivery is sent")
    func oneHandOverPerDelivery() async throws {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 64)
        let seen = Mutex(0)
        let reader = Task.detached {
            for await _ in stream { seen.withLock { $0 += 1 } }
        }
        for index in 0 ..< 5 { handOver.add(Self.buffer(index)) }
        try await Task.sleep(for: .milliseconds(100))
        #expect(seen.withLock { $0 } == 0)
        handOver.send()
        handOver.finish()
        await reader.value
        #expect(seen.withLock { $0 } == 5)
    }

    @Test("stamps moved before a send reach the reader moved; those already sent stay as they were")
    func shiftPending() async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 64)
        for index in 0 ..< 3 {
            var buffer = Self.buffer(index)
            buffer.captureTime = 10 + Double(index)
            handOver.add(buffer)
            if index == 0 { handOver.send() }
        }
        #expect(handOver.pendingCount == 2)
        handOver.shiftPendingCaptureTimes(by: -0.25)
        handOver.send()
        #expect(handOver.pendingCount == 0)
        handOver.finish()
        #expect(await Self.read(stream).map(\.captureTime) == [10, 10.75, 11.75])
    }

    @Test("a reader a whole pool behind loses the newer buffers, counted; places are reused once read")
    func bounded() async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 8)
        for index in 0 ..< 20 { handOver.add(Self.buffer(index)) }
        handOver.send()
        #expect(stream.pool.deliveredCount == 8)
        #expect(stream.pool.droppedCount == 12)

        // Reading frees the places: the next delivery fits again, after the first eight.
        var iterator = stream.makeAsyncIterator()
        var received: [AudioBuffer] = []
        for _ in 0 ..< 8 { if let buffer = await iterator.next() { received.append(buffer) } }
        for index in 20 ..< 28 { handOver.add(Self.buffer(index)) }
        handOver.finish()
        while let buffer = await iterator.next() { received.append(buffer) }
        #expect(received.map(\.startFrame) == (Array(0 ..< 8) + Array(20 ..< 28)).map { Int64($0 * 256) })
        #expect(stream.pool.deliveredCount == 16)
        #expect(stream.pool.droppedCount == 12)
    }

    @Test("a delivery of more than a batch goes over in several, still in order")
    func largeDelivery() async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 1024)
        for index in 0 ..< AudioBatch.capacity * 3 + 5 { handOver.add(Self.buffer(index, channels: 8)) }
        handOver.finish()
        let received = await Self.read(stream)
        #expect(received.map(\.startFrame) == (0 ..< AudioBatch.capacity * 3 + 5).map { Int64($0 * 256) })
        #expect(received.allSatisfy { $0.channelCount == 8 && $0.frameCount == 256 })
        #expect(received.last?[255, 7] == Float((AudioBatch.capacity * 3 + 5) * 256 * 8 - 1))
    }

    @Test("after the reader has gone, sending frees the places instead of keeping them")
    func readerGone() async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 4)
        do {
            var iterator = stream.makeAsyncIterator()
            handOver.add(Self.buffer(0))
            handOver.send()
            _ = await iterator.next()
        }
        // Finishing ends the stream; what is added afterwards has nowhere to go and must not
        // hold places (a new pool is not made for it).
        handOver.finish()
        for index in 1 ..< 10 {
            handOver.add(Self.buffer(index))
            handOver.send()
        }
        #expect(stream.pool.droppedCount == 0)
        #expect(stream.pool.deliveredCount == 1)
    }

    @Test("forEach sees every buffer where it waits, in order, and frees each place after it")
    func visitInPlace() async {
        var (stream, handOver) = AudioBufferStream.make(bufferLimit: 4)
        // Mono then stereo into the same places: a place keeps no samples of its last buffer.
        for index in 0 ..< 4 { handOver.add(Self.buffer(index, channels: 1)) }
        handOver.send()
        var seen: [Int64] = []
        var iterator = stream.makeAsyncIterator()
        for _ in 0 ..< 4 { _ = await iterator.next() }
        for index in 4 ..< 8 { handOver.add(Self.buffer(index)) }
        handOver.finish()
        await stream.forEach { buffer in
            seen.append(buffer.startFrame)
            #expect(buffer.channelCount == 2 && buffer.frameCount == 256)
            buffer.withSamples { #expect($0.first == Float(Int(buffer.startFrame) * 2) && $0.last == Float(Int(buffer.startFrame) * 2 + 511)) }
        }
        #expect(seen == (4 ..< 8).map { Int64($0 * 256) })
        #expect(stream.pool.droppedCount == 0)
    }
}
