import DecibarCore
import Testing

struct MediaLocationTests {
    @Test("only http:// and https:// (any case) are addresses; everything else is a file")
    func kinds() {
        #expect(MediaLocation("http://example.org/a.mp3") == .remote("http://example.org/a.mp3"))
        #expect(MediaLocation("HTTPS://example.org/a.mp3") == .remote("HTTPS://example.org/a.mp3"))
        for file in ["a.mp3", "/music/http://x", "ftp://example.org/a.mp3", "file:///a.mp3", "concat:a|b", "http:/a", ""] {
            #expect(MediaLocation(file) == .file(file), "\(file)")
        }
    }

    @Test("titles name the file: the last path segment without its query, or the host")
    func displayNames() {
        #expect(MediaLocation("https://example.org/music/song%20one.flac?token=1").displayName == "song%20one.flac")
        #expect(MediaLocation("http://radio.example.org:8000/").displayName == "radio.example.org:8000")
        #expect(MediaLocation("http://radio.example.org:8000/stream").displayName == "stream")
        #expect(MediaLocation("/music/a.flac").displayName == "a.flac")
    }

    @Test("a streamed track's desktop URL is its address; a file's is a file:// URL")
    func trackURL() {
        let remote = MediaTrack(index: 0, path: "http://127.0.0.1:8000/radio", tags: TrackTags(), duration: 0)
        #expect(remote.url == "http://127.0.0.1:8000/radio" && remote.title == "radio" && remote.length == nil)
        let file = MediaTrack(index: 1, path: "/music/a b.flac", tags: TrackTags(), duration: 2)
        #expect(file.url == "file:///music/a%20b.flac")
    }
}
