import DecibarCore
import Testing

@Suite("The player's rings: seeks as generations, and the file frame of each stretch of audio")
struct PlaybackRingTests {
    func write(_ ring: PlaybackRing, _ values: [Float]) -> Int { values.withUnsafeBufferPointer { ring.write($0) } }

    func read(_ ring: PlaybackRing, frames count: Int) -> (PlaybackRing.Read, [Float]) {
        var out = [Float](repeating: -1, count: count * ring.channelCount)
        let result = out.withUnsafeMutableBufferPointer { ring.read(into: $0.baseAddress!, frames: count) }
        switch result {
        case .audio(let got), .last(let got): return (result, Array(out.prefix(got * ring.channelCount)))
        case .ended, .waiting: return (result, [])
        }
    }

    @Test("the reader waits until the producer primes, then reads; the producer learns once that it waited or fell short")
    func priming() {
        let ring = PlaybackRing(capacity: 16, channelCount: 1)
        #expect(write(ring, [1, 2, 3]) == 3)
        #expect(read(ring, frames: 2).0 == .waiting)
        #expect(ring.bufferedFrames == 0)
        #expect(ring.takeWaitingReader() && !ring.takeWaitingReader())
        ring.markPrimed()
        #expect(ring.bufferedFrames == 3 && ring.framesAhead == 3)
        #expect(read(ring, frames: 2) == (.audio(frames: 2), [1, 2]))
        #expect(!ring.takeWaitingReader())
        // Fewer than asked is a shortfall, not the end: the reader wants the rest when it comes.
        #expect(read(ring, frames: 4) == (.audio(frames: 1), [3]))
        #expect(ring.takeWaitingReader())
    }

    @Test("a seek: the reader waits until the producer begins it, then skips everything written before")
    func seek() {
        let ring = PlaybackRing(capacity: 16, channelCount: 1)
        _ = write(ring, [1, 2, 3, 4])
        ring.markPrimed()
        #expect(read(ring, frames: 1) == (.audio(frames: 1), [1]))
        let generation = ring.requestGeneration()
        #expect(generation == 1 && ring.generationToBegin == 1)
        // Audio the producer made before it saw the seek.
        _ = write(ring, [5, 6])
        #expect(read(ring, frames: 2).0 == .waiting)
        ring.begin(generation)
        #expect(ring.generationToBegin == nil && ring.generation == 1 && !ring.isPrimed)
        _ = write(ring, [100, 101])
        #expect(read(ring, frames: 2).0 == .waiting)
        ring.markPrimed()
        #expect(ring.framesAhead == 2)
        #expect(read(ring, frames: 8) == (.audio(frames: 2), [100, 101]))
    }

    @Test("the end: the last frames are .last, then .ended; finishing before anything is primed ends a waiting reader")
    func end() {
        let ring = PlaybackRing(capacity: 16, channelCount: 2)
        _ = write(ring, [1, 1, 2, 2, 3, 3])
        ring.finish()
        #expect(ring.isFinished && ring.isWrittenToEnd)
        #expect(read(ring, frames: 2) == (.audio(frames: 2), [1, 1, 2, 2]))
        #expect(read(ring, frames: 2) == (.last(frames: 1), [3, 3]))
        #expect(read(ring, frames: 2).0 == .ended)
        let generation = ring.requestGeneration()
        #expect(!ring.isWrittenToEnd)
        ring.begin(generation)
        ring.finish()
        #expect(read(ring, frames: 2).0 == .ended)
    }

    @Test("marks: the file frame at any position on each stretch's line, across a seek's restart")
    func marks() {
        let marks = FrameMarks(capacity: 4, start: .init(position: 0, fileFrame: 1000, rate: 1))
        // 100 ring frames at normal speed, then rate 1.5 from there.
        #expect(marks.follow(position: 0, fileFrame: 1000, rate: 1))
        #expect(marks.follow(position: 64, fileFrame: 1064, rate: 1))
        #expect(marks.freeCount == 4, "a stretch on the same line needs no mark")
        #expect(marks.follow(position: 100, fileFrame: 1100, rate: 1.5))
        #expect(marks.freeCount == 3)
        #expect(marks.fileFrame(at: 50) == (1050, 1))
        #expect(marks.fileFrame(at: 100) == (1100, 1.5))
        #expect(marks.fileFrame(at: 300) == (1400, 1.5))
        // Passed marks are freed.
        #expect(marks.freeCount == 4)
        // A seek restarts at its target at the ring's position then; a pitch change's jump of the
        // stretcher (the same rate, off the line) is marked too.
        #expect(marks.follow(position: 300, fileFrame: 48000, rate: 1.5))
        #expect(marks.follow(position: 556, fileFrame: 48000 + 256 * 1.5 - 30, rate: 1.5))
        #expect(marks.fileFrame(at: 428) == (48192, 1.5))
        #expect(marks.fileFrame(at: 600) == (48000 + 256 * 1.5 - 30 + 44 * 1.5, 1.5))
    }

    @Test("marks: no room past the capacity until the reader passes some")
    func marksFull() {
        let marks = FrameMarks(capacity: 2)
        #expect(marks.append(.init(position: 10, fileFrame: 10, rate: 1)))
        #expect(marks.append(.init(position: 20, fileFrame: 30, rate: 1)))
        #expect(!marks.append(.init(position: 30, fileFrame: 50, rate: 1)))
        #expect(marks.fileFrame(at: 15) == (15, 1))
        #expect(marks.freeCount == 1)
        #expect(marks.append(.init(position: 30, fileFrame: 50, rate: 1)))
        #expect(marks.fileFrame(at: 25) == (35, 1))
    }
}
