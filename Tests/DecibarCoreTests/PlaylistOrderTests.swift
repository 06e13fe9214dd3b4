import DecibarCore
import DecibarTestSupport
import Testing

@Suite("Shuffled playlist order")
struct PlaylistOrderTests {
    @Test("the track playing stays first, every other comes once; restored puts the list back as given")
    func shuffled() {
        var generator = SeededGenerator(state: 7)
        let order = PlaylistOrder.shuffled(count: 6, first: 3, using: &generator)
        #expect(order.first == 3 && order.sorted() == [0, 1, 2, 3, 4, 5])
        let files = ["a", "b", "c", "d", "e", "f"]
        let shuffled = order.map { files[$0] }
        #expect(PlaylistOrder.restored(shuffled, order: order) == files)
        // Nothing open yet: all are drawn.
        let all = PlaylistOrder.shuffled(count: 6, first: -1, using: &generator)
        #expect(all.sorted() == [0, 1, 2, 3, 4, 5])
        #expect(PlaylistOrder.shuffled(count: 0, first: 0, using: &generator).isEmpty)
        // Different draws differ (a shuffle that never moves anything would pass the rest).
        let draws = Set((0 ..< 20).map { _ in PlaylistOrder.shuffled(count: 6, first: 0, using: &generator) })
        #expect(draws.count > 10)
    }
}
