import DecibarAudio
import DecibarCore
import Foundation
import Synchronization

/// A streamed track being opened on a thread of its own: connecting, the server's answer and the
/// format probe take time that the window must not wait for. The player takes the outcome when
/// it is there.
final class PendingOpen: TrackConnection, Sendable {
    private let stream: StreamDownload
    private let result = Mutex<Result<FilePlaybackSource, AudioFileError>?>(nil)

    /// - Parameter reusing: the same address's download, still running or complete (a stopped track played again).
    init(url: String, settings: StreamSettings, reusing: StreamDownload? = nil) {
        let download = reusing ?? StreamDownload(url: url, settings: settings)
        stream = download
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

    var download: any TrackDownload { stream }

    var outcome: Result<any TrackSource, AudioFileError>? {
        result.withLock { $0 }.map { $0.map { $0 as any TrackSource } }
    }

    func cancel() { stream.cancel() }
}
