import DecibarAudio
import DecibarCore
import Foundation

/// The playlist: which file plays, its player and overview, moving on at the end of each file.
/// A file that cannot be played is reported in one line and skipped.
final class PlaySession {
    private(set) var files: [String]
    var loops: Bool
    let heard = AudioFeed()
    private(set) var index = -1
    private(set) var player: PulsePlayer?
    private var source: FilePlaybackSource?
    private(set) var peaks: PeaksJob?
    private(set) var duration: Double = 0
    private var pump: FeedPump?
    /// Set when the list has ended (without --loop) or nothing could be played.
    private(set) var isOver = false
    /// Files that played (to their end, or until the user moved on) without a problem.
    private(set) var cleanFileCount = 0
    /// Files that could not be opened or broke while playing (each reported in one line).
    private(set) var failureCount = 0

    init(files: [String], loops: Bool) {
        self.files = files
        self.loops = loops
    }

    /// The name of the file playing (its last path component).
    private(set) var currentName = ""
    var sampleRate: Int { player?.sampleRate ?? 48000 }

    /// Opens the file at `start` or the next playable one after it, in `direction`.
    func open(from start: Int, direction: Int = 1, autoplay: Bool = true) {
        close()
        isOver = false
        var candidate = start
        for _ in 0 ..< files.count {
            if candidate >= files.count || candidate < 0 {
                guard loops else { isOver = true; return }
                candidate = (candidate + files.count) % files.count
            }
            if openFile(at: candidate, autoplay: autoplay) { return }
            candidate += direction
        }
        isOver = true
    }

    private func openFile(at index: Int, autoplay: Bool) -> Bool {
        let path = files[index]
        do {
            let source = try FilePlaybackSource(path: path)
            let player = try PulsePlayer(source: source)
            self.index = index
            currentName = OutputPath.name(of: path)
            self.player = player
            self.source = source
            duration = Double(source.estimatedFrameCount ?? 0) / Double(source.sampleRate)
            peaks = PeaksJob(path: path, audio: PeaksCache.Audio(source))
            pump = FeedPump(player.buffers, into: heard)
            writeError("playing \(path)")
            if autoplay { player.play() }
            return true
        } catch let error as AudioFileError {
            writeError(error.description)
        } catch {
            writeError("\(path.escapingControlCharacters): \(error)")
        }
        failureCount += 1
        return false
    }

    func close() {
        // A file that broke while playing (it then ended early) is reported once, like one that cannot open.
        if let source {
            // Underruns are not failures, but a user should know the sound had gaps, and why.
            if let underruns = player?.underrunCount, underruns > 0 {
                writeError("\(source.path): \(underruns) underrun\(underruns == 1 ? "" : "s"): decoding fell behind the sound")
            }
            if let failure = source.failure {
                writeError(failure.description)
                failureCount += 1
            } else {
                cleanFileCount += 1
            }
        }
        source = nil
        peaks?.cancel()
        pump?.cancel()
        player?.stop()
        player = nil
        heard.discardWaiting()
    }

    /// The overview's frame count, once known, is the exact duration.
    func refreshDuration() {
        if let snapshot = peaks?.snapshot, snapshot.isDone, let frames = snapshot.frameCount, frames > 0, let done = snapshot.peaks {
            duration = Double(frames) / Double(done.sampleRate)
        }
    }

    var playhead: Double {
        guard let player else { return 0 }
        return min(duration, Double(player.heardFrame) / Double(player.sampleRate))
    }

    func seek(to seconds: Double) {
        guard let player else { return }
        heard.discardWaiting()
        player.seek(toFrame: Int64((max(0, min(duration, seconds)) * Double(player.sampleRate)).rounded()))
    }

    /// Adds files to the end of the list.
    func append(_ more: [String]) {
        files += more
        isOver = false
    }

    func next() { open(from: index + 1) }
    func previous() { open(from: index - 1, direction: -1) }
}
