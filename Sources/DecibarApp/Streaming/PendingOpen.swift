import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// A streamed track being opened on a thread of its own: connecting, the server's answer and the
/// format probe take time that the window must not wait for. The player takes the outcome when
/// it is there.
final class PendingOpen: Sendable {
    let index: Int
    /// Plays once open (Pause while connecting clears it).
    var autoplay: Bool {
        get { autoplayBox.load(ordering: .relaxed) }
        set { autoplayBox.store(newValue, ordering: .relaxed) }
    }
    private let autoplayBox: Atomic<Bool>
    let keepsOverview: Bool
    let direction: Int
    let download: StreamDownload
    private let result = Mutex<Result<FilePlaybackSource, AudioFileError>?>(nil)

    /// - Parameter reusing: the same address's download, still running or complete (a stopped track played again).
    init(url: String, index: Int, direction: Int, autoplay: Bool, keepsOverview: Bool, settings: StreamSettings,
         reusing: StreamDownload? = nil) {
        self.index = index
        self.direction = direction
        autoplayBox = Atomic(autoplay)
        self.keepsOverview = keepsOverview
        download = reusing ?? StreamDownload(url: url, settings: settings)
        let thread = Thread { [self] in
            let outcome: Result<FilePlaybackSource, AudioFileError>
            if let failure = download.waitForHead(timeout: settings.connectTimeout + settings.stallTimeout + 1) {
                outcome = .failure(AudioFileError(path: url, reason: failure))
            } else {
                do throws(AudioFileError) {
                    outcome = .success(try FilePlaybackSource(decoder: try AudioFileDecoder(source: download, name: url)))
                } catch {
                    outcome = .failure(error)
                }
            }
            if case .failure = outcome { download.cancel() }
            result.withLock { $0 = outcome }
        }
        thread.name = "decibar-open"
        thread.start()
    }

    /// The opened track, or why it could not be opened; nil while still opening.
    var outcome: Result<FilePlaybackSource, AudioFileError>? { result.withLock { $0 } }

    func cancel() { download.cancel() }
}
