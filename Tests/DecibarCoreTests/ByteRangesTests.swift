import DecibarCore
import Testing

struct ByteRangesTests {
    @Test("pieces merge when they touch or overlap, in any order, and stay sorted")
    func merging() {
        var held = ByteRanges()
        held.insert(100 ..< 200)
        held.insert(300 ..< 400)
        #expect(held.ranges == [100 ..< 200, 300 ..< 400])
        held.insert(200 ..< 250)
        #expect(held.ranges == [100 ..< 250, 300 ..< 400])
        held.insert(0 ..< 10)
        held.insert(240 ..< 310)
        #expect(held.ranges == [0 ..< 10, 100 ..< 400])
        held.insert(5 ..< 5)
        #expect(held.count == 310)
        #expect(held.contains(9) && !held.contains(10) && held.contains(399) && !held.contains(400))
    }

    @Test("how far a reader can read without waiting, and the first gap from a place")
    func availableAndGaps() {
        let held = ByteRanges([0 ..< 1000, 5000 ..< 6000])
        #expect(held.availableEnd(from: 0) == 1000)
        #expect(held.availableEnd(from: 999) == 1000)
        #expect(held.availableEnd(from: 1000) == 1000)
        #expect(held.availableEnd(from: 5500) == 6000)
        #expect(held.firstGap(from: 0, total: 8000) == 1000 ..< 5000)
        #expect(held.firstGap(from: 5200, total: 8000) == 6000 ..< 8000)
        #expect(held.firstGap(from: 6000, total: 6000) == nil)
        #expect(!held.isComplete(total: 6000))
        #expect(ByteRanges([0 ..< 6000]).isComplete(total: 6000))
        #expect(ByteRanges().firstGap(from: 0, total: 10) == 0 ..< 10)
    }

    @Test("fractions for the scrubber's shading")
    func fractions() {
        let held = ByteRanges([0 ..< 250, 500 ..< 1000])
        #expect(held.fractions(of: 1000) == [0 ... 0.25, 0.5 ... 1])
        #expect(held.fractions(of: 0) == [])
    }
}
