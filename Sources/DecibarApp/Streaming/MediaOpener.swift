import DecibarAudio
import DecibarCore

/// Opens a track by name: a file, or an `http(s)://` address streamed through a download.
enum MediaOpener {
    /// A decoder for `name`, and the download behind it when it is an address (cancel it when done:
    /// its thread otherwise fetches to the end).
    static func decoder(for name: String, settings: StreamSettings = StreamSettings(),
                        following download: StreamDownload? = nil) throws(AudioFileError) -> (AudioFileDecoder, StreamDownload?) {
        switch MediaLocation(name) {
        case .file(let path):
            return (try AudioFileDecoder(path: path), nil)
        case .remote(let url):
            if let download {
                // A second reader of a download that is already running (the overview).
                return (try AudioFileDecoder(source: download.follower, name: url), nil)
            }
            let download = StreamDownload(url: url, settings: settings)
            if let failure = download.waitForHead(timeout: settings.connectTimeout + settings.stallTimeout + 1) {
                download.cancel()
                throw AudioFileError(path: url, reason: failure)
            }
            do {
                return (try AudioFileDecoder(source: download, name: url), download)
            } catch {
                download.cancel()
                throw error
            }
        }
    }
}
