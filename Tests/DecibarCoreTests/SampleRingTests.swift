import DecibarCore
import Foundation
import Testing

@Suite("Sample ring between a decoding thread and the audio callback")
struct SampleRingTests {
    func frames(_ values: ClosedRange<Int>, channels: Int = 2) -> [Float] {
        values.flatMap { value in (0 ..< channels).map { Float(value) + Float($0) / 10 } }
    }

    func read(_ ring: SampleRing, frames count: Int) -> [Float] {
        var out = [Float](repeating: -1, count: count * ring.channelCount)
        let got = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: count) }
        return Array(out.prefix(got * ring.channelCount))
    }

    @Test("frames come out as they went in, across the wrap, and never more than fit")
    func wrap() {
        let ring = SampleRing(capacity: 8, channelCount: 2)
        let first = frames(1 ... 6)
        #expect(first.withUnsafeBufferPointer { ring.write($0) } == 6)
        #expect(read(ring, frames: 4) == frames(1 ... 4))
        // 2 left, room for 6: the write wraps around the end of the storage.
        let second = frames(7 ... 14)
        #expect(second.withUnsafeBufferPointer { ring.write($0) } == 6)
        #expect(ring.freeFrames == 0 && ring.availableFrames == 8)
        #expect(read(ring, frames: 100) == frames(5 ... 12))
        #expect(ring.availableFrames == 0 && read(ring, frames: 1).isEmpty)
    }

    @Test("skipping drops stale frames up to a producer's position, and no further")
    func skip() {
        let ring = SampleRing(capacity: 16, channelCount: 1)
        let stale = (1 ... 10).map(Float.init)
        _ = stale.withUnsafeBufferPointer { ring.write($0) }
        let seekStart = ring.writePosition
        let fresh: [Float] = [100, 101]
        _ = fresh.withUnsafeBufferPointer { ring.write($0) }
        ring.skip(to: seekStart)
        #expect(read(ring, frames: 10) == fresh)
        ring.skip(to: ring.readPosition + 50)
        #expect(ring.readPosition == ring.writePosition)
    }

    @Test("a producer and a consumer on two threads: every frame arrives once, in order")
    func concurrent() {
        let ring = SampleRing(capacity: 1000, channelCount: 1)
        let total = 2_000_000
        let done = DispatchSemaphore(value: 0)
        Thread {
            var next = 0
            var chunk = [Float](repeating: 0, count: 333)
            while next < total {
                let count = min(chunk.count, total - next)
                for index in 0 ..< count { chunk[index] = Float(next + index) }
                let written = chunk.withUnsafeBufferPointer { ring.write(UnsafeBufferPointer(rebasing: $0[0 ..< count])) }
                next += written
            }
            done.signal()
        }.start()
        var expected = 0
        var out = [Float](repeating: 0, count: 257)
        var wrong = 0
        while expected < total {
            let got = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: 257) }
            for index in 0 ..< got where out[index] != Float(expected + index) { wrong += 1 }
            expected += got
        }
        done.wait()
        #expect(wrong == 0)
        #expect(expected == total)
    }
}
