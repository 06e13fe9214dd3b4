import Foundation
import Synchronization

/// Synthetic songs made by `Scripts/make-music.sh` (drums, bass, chords and a lead in quiet and
/// loud sections, mastered to an integrated loudness), made once per test run and shared by the
/// suites that judge bars and loudness on music rather than on tones.
enum MusicLibrary {
    struct Song: Sendable, CustomStringConvertible {
        let style: Int
        let lufs: Int
        var description: String { "style \(style) at \(lufs) LUFS" }
    }

    /// Three tempos, keys and timbres at three loudnesses: quiet broadcast, streaming, a loud master.
    static let songs = [Song(style: 0, lufs: -23), Song(style: 1, lufs: -14), Song(style: 2, lufs: -9)]

    private static let made = Mutex<[Int: String]>([:])
    private static let folder: String = {
        let path = NSTemporaryDirectory() + "decibar-music-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// The song's WAV file (64 s, 48 kHz stereo float), made on first use.
    static func path(of song: Song) throws -> String {
        // Made under the lock: tests asking for the same song wait for one making.
        try made.withLock { made in
            if let path = made[song.style * 1000 - song.lufs] { return path }
            let path = folder + "/song\(song.style)_\(-song.lufs).wav"
            let result = try TestRig.run("bash", [TestRig.packageRoot + "/Scripts/make-music.sh", path, "\(song.style)", "\(song.lufs)"])
            guard result.status == 0 else { throw RigError("make-music.sh failed: \(result.error)") }
            made[song.style * 1000 - song.lufs] = path
            return path
        }
    }
}
