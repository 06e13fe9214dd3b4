import DecibarCore
import Testing

@Suite("Player state and desktop metadata")
struct PlayerStateTests {
    @Test("l cycles none, track, playlist; MPRIS names round-trip")
    func loopModes() {
        #expect(LoopMode.none.next == .track && LoopMode.track.next == .playlist && LoopMode.playlist.next == .none)
        #expect(LoopMode.allCases.map(\.mprisName) == ["None", "Track", "Playlist"])
        #expect(LoopMode.allCases.allSatisfy { LoopMode(mprisName: $0.mprisName) == $0 })
        #expect(LoopMode(mprisName: "Shuffle") == nil)
    }

    @Test("volume is cubic in amplitude: 50 % is -18.06 dB; steps of 5 stay on the grid and in range")
    func volume() {
        #expect(abs(PlayerVolume.decibels(50) - -18.0618) < 0.0001)
        #expect(abs(PlayerVolume.decibels(95) - -1.3366) < 0.0001)
        #expect(PlayerVolume.decibels(100) == 0)
        #expect(PlayerVolume.decibels(0) == -.infinity)
        #expect(PlayerVolume.stepped(100, by: -1) == 95)
        #expect(PlayerVolume.stepped(97, by: 1) == 100)
        #expect(PlayerVolume.stepped(2, by: -1) == 0)
        #expect(PlayerVolume.stepped(150, by: 1) == 150)
        #expect(PlayerVolume.clamped(-3) == 0 && PlayerVolume.clamped(.nan) == 100)
    }

    @Test("a track's metadata: its tags, or the file name; lengths in µs; URLs percent-encoded and read back")
    func tracks() {
        let tagged = MediaTrack(index: 2, path: "/music/a b&c.flac", tags: TrackTags(title: "Song", artist: "Band", album: "LP"), duration: 61.5)
        #expect(tagged == MediaTrack(id: "/org/decibar/track/2", length: 61_500_000, title: "Song", artists: ["Band"], album: "LP",
                                     url: "file:///music/a%20b%26c.flac"))
        let bare = MediaTrack(index: 0, path: "/tmp/x.wav", tags: TrackTags(title: ""), duration: 0)
        #expect(bare.title == "x.wav" && bare.artists.isEmpty && bare.album == nil && bare.length == nil)
        #expect(MediaTrack.fileURL("/é") == "file:///%C3%A9")
        // TrackList ids name places in the list, and only those.
        #expect(MediaTrack.index(ofID: "/org/decibar/track/12") == 12 && MediaTrack.id(ofIndex: 12) == "/org/decibar/track/12")
        for wrong in ["/org/decibar/track/", "/org/decibar/track/-1", "/org/decibar/track/01", "/org/decibar/track/1/2",
                      "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/org/decibar/track/+3"] {
            #expect(MediaTrack.index(ofID: wrong) == nil, "\(wrong)")
        }
        #expect(MediaTrack.path(fromURI: "file:///music/a%20b%26c.flac") == "/music/a b&c.flac")
        #expect(MediaTrack.path(fromURI: "file://localhost/x") == "/x")
        #expect(MediaTrack.path(fromURI: "/plain/path") == "/plain/path")
        #expect(MediaTrack.path(fromURI: "http://example.org/a.mp3") == nil)
        #expect(MediaTrack.path(fromURI: "file://otherhost/x") == nil)
        #expect(MediaTrack.path(fromURI: "file:///a%00b") == nil)
    }

    @Test("a change names exactly the properties that signal it; the position never does")
    func changedProperties() {
        let before = MediaPlayerState()
        #expect(before.changedProperties(since: before).isEmpty)
        var after = before
        after.status = .playing
        after.track = MediaTrack(index: 0, path: "/a.wav", tags: TrackTags(), duration: 1)
        after.volume = 50
        after.canSeek = true
        #expect(after.changedProperties(since: before) == ["PlaybackStatus", "Metadata", "Volume", "CanPlay", "CanPause", "CanSeek"])
        // Idle and stopped are both Stopped on the bus: no signal.
        var stopped = before
        stopped.status = .stopped
        #expect(stopped.changedProperties(since: before).isEmpty)
        var looping = before
        looping.loop = .playlist
        looping.canGoNext = true
        #expect(looping.changedProperties(since: before) == ["LoopStatus", "CanGoNext"])
    }

    @Test("the loop key still reads true and false from older config files")
    func loopConfig() throws {
        let key = try ConfigSchema.key(named: "loop")
        #expect(try key.check(.bool(true)) == .string("playlist"))
        #expect(try key.check(.bool(false)) == .string("none"))
        #expect(try key.check(.string("Track")) == .string("track"))
        #expect(throws: ConfigFailure.self) { try key.check(.string("forever")) }
    }
}
