import DecibarCore
import Testing

/// The transport's moves in the list: next, previous and the end of a track, under each loop mode.
@Suite("Playlist moves")
struct PlaylistMoveTests {
    @Test("next: the following track; past the last, the end of the list, or the first again in a looped list")
    func next() {
        #expect(PlaylistMove.next(from: 0, count: 3, loop: .none) == .open(from: 1, direction: 1))
        #expect(PlaylistMove.next(from: 2, count: 3, loop: .none) == .endOfList)
        #expect(PlaylistMove.next(from: 2, count: 3, loop: .track) == .endOfList, "looping a track does not loop the list")
        #expect(PlaylistMove.next(from: 2, count: 3, loop: .playlist) == .open(from: 3, direction: 1))
        #expect(PlaylistMove.candidates(from: 3, direction: 1, count: 3, loop: .playlist) == [0, 1, 2])
    }

    @Test("previous: the track before, walking backwards past unplayable ones; on the first, its start")
    func previous() {
        #expect(PlaylistMove.previous(from: 2, count: 3, loop: .none) == .open(from: 1, direction: -1))
        #expect(PlaylistMove.previous(from: 0, count: 3, loop: .none) == .seekToStart)
        #expect(PlaylistMove.previous(from: 0, count: 3, loop: .playlist) == .open(from: -1, direction: -1))
        #expect(PlaylistMove.candidates(from: -1, direction: -1, count: 3, loop: .playlist) == [2, 1, 0])
        #expect(PlaylistMove.candidates(from: 1, direction: -1, count: 3, loop: .none) == [1, 0])
    }

    @Test("the end of a track: again with loop track, the next one, or the end of the list")
    func afterTrack() {
        #expect(PlaylistMove.afterTrack(1, count: 3, loop: .track) == .replay)
        #expect(PlaylistMove.afterTrack(1, count: 3, loop: .none) == .open(from: 2, direction: 1))
        #expect(PlaylistMove.afterTrack(2, count: 3, loop: .none) == .endOfList)
        #expect(PlaylistMove.afterTrack(2, count: 3, loop: .playlist) == .open(from: 3, direction: 1))
        #expect(PlaylistMove.afterTrack(0, count: 1, loop: .track) == .replay)
    }

    @Test("opening tries each file once at most, skipping to the end (or around, looped)")
    func candidates() {
        #expect(PlaylistMove.candidates(from: 1, direction: 1, count: 4, loop: .none) == [1, 2, 3])
        #expect(PlaylistMove.candidates(from: 1, direction: 1, count: 4, loop: .playlist) == [1, 2, 3, 0])
        #expect(PlaylistMove.candidates(from: 2, direction: 1, count: 4, loop: .playlist, tries: 3) == [2, 3, 0])
        #expect(PlaylistMove.candidates(from: 5, direction: 1, count: 4, loop: .none).isEmpty)
        #expect(PlaylistMove.candidates(from: 0, direction: 1, count: 0, loop: .playlist).isEmpty, "an empty looped list tries nothing")
    }

    @Test("can go next or previous: within the list, or always in a looped one with tracks")
    func canGo() {
        #expect(PlaylistMove.canGoNext(from: 0, count: 2, loop: .none) && !PlaylistMove.canGoNext(from: 1, count: 2, loop: .none))
        #expect(PlaylistMove.canGoNext(from: 1, count: 2, loop: .playlist) && !PlaylistMove.canGoNext(from: 0, count: 0, loop: .playlist))
        #expect(!PlaylistMove.canGoPrevious(from: 0, count: 2, loop: .none) && PlaylistMove.canGoPrevious(from: 1, count: 2, loop: .none))
        #expect(PlaylistMove.canGoPrevious(from: 0, count: 2, loop: .playlist))
    }
}
