import DecibarAudio
import DecibarCore
import DecibarNetwork
import Foundation

/// A track downloading while it plays: a thread of its own fetches it into a cache file, and the
/// decoder reads from that file, waiting for bytes that have not arrived yet.
///
/// A read beyond what has arrived (a seek ahead) moves the download there with a range request;
/// once the end is reached the gaps left behind are filled, so the whole file ends up in the cache.
/// An endless stream (radio: no length) goes into a ring of `StreamSettings.liveWindowBytes` in
/// the same kind of file, so memory and disk stay bounded however long it plays; its titles (ICY
/// metadata) are taken out of the audio as they come.
final class StreamDownload: AudioByteSource, @unchecked Sendable {
    // @unchecked: every mutable field below is read and written only with `condition` locked.

    let url: String
    let settings: StreamSettings
    private let condition = NSCondition()
    private var store: StreamStore?
    private var ranges = ByteRanges()
    private var total: Int64?
    private var endless = false
    private var rangesServed = false
    private var headKnown = false
    private var complete = false
    private var failure: HTTPError?
    private var cancelled = false
    /// Where a reader is waiting for bytes that are not there and not coming soon.
    private var wanted: Int64?
    /// Where the running request writes next.
    private var writing: Int64 = 0
    private var validator: String?
    private var title: String?
    private var station: String?
    private var requests = 0
    /// Steering readers waiting for bytes.
    private var playerWaits = 0

    /// A reader more than this far ahead of the download starts a range request there rather than
    /// wait for the download to reach it.
    static let jumpDistance: Int64 = 256 << 10

    init(url: String, settings: StreamSettings) {
        self.url = url
        self.settings = settings
        let thread = Thread { [self] in run() }
        thread.name = "decibar-download"
        thread.start()
    }

    /// Stops the download; waiting readers return `.cancelled`. Returns at once.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits (up to `timeout` seconds) for the server's answer: nil once the head is in, or why
    /// the download failed.
    func waitForHead(timeout: Double) -> String? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !headKnown && failure == nil && !cancelled {
            if !condition.wait(until: deadline) { return "no answer within \(Int(timeout)) s" }
        }
        if let failure { return failure.message }
        if cancelled { return "cancelled" }
        return nil
    }

    /// What a screen shows about it.
    var snapshot: StreamSnapshot {
        condition.lock()
        defer { condition.unlock() }
        return StreamSnapshot(total: total, held: ranges, isEndless: endless, isComplete: complete,
                              failure: failure?.message, title: title, station: station, requestCount: requests)
    }

    // MARK: AudioByteSource

    var size: Int64? {
        condition.lock()
        defer { condition.unlock() }
        return endless ? nil : total
    }

    var isSeekable: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !endless && total != nil && rangesServed
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> AudioByteRead {
        read(into: buffer, at: offset, steers: true)
    }

    /// A reader that follows the download without moving it (the overview: it must not pull the
    /// download away from where the player is).
    var follower: any AudioByteSource { StreamFollower(download: self) }

    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64, steers: Bool) -> AudioByteRead {
        condition.lock()
        defer { condition.unlock() }
        var offset = offset
        while true {
            if cancelled { return .cancelled }
            if let total, !endless, offset >= total { return .end }
            if endless, let store, offset < store.oldestOffset(writtenTo: writing) {
                // The ring moved past the reader (playback was paused): carry on from the oldest byte kept.
                offset = store.oldestOffset(writtenTo: writing)
            }
            let available = ranges.availableEnd(from: offset)
            if available > offset, let store {
                let count = Int(min(Int64(buffer.count), available - offset))
                let read = store.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0 ..< count]), at: offset)
                if read > 0 { return .bytes(read) }
                return .failed("cannot read the stream's cache file")
            }
            if let failure { return .failed(failure.message) }
            if complete { return .end }
            // Not there: if the download is far from it, move the download here.
            if steers, isSeekableLocked, offset < writing || offset > writing + Self.jumpDistance, wanted != offset {
                wanted = offset
                condition.broadcast()
            }
            if steers { playerWaits += 1 }
            condition.wait()
            if steers { playerWaits -= 1 }
        }
    }

    /// What identifies this version of the file for caches (the server's validator and the
    /// length); nil when the server gives no validator, or for an endless stream.
    var cacheIdentity: String? {
        condition.lock()
        defer { condition.unlock() }
        guard let validator, let total, !endless else { return nil }
        return "\(validator)|\(total)"
    }

    /// The player's decoder is waiting for bytes that have not arrived: the network is behind.
    var isPlayerWaiting: Bool {
        condition.lock()
        defer { condition.unlock() }
        return playerWaits > 0
    }

    private var isSeekableLocked: Bool { !endless && total != nil && rangesServed }

    // MARK: The download thread

    private func run() {
        var start: Int64 = 0
        var end: Int64?
        var retries = 0
        while true {
            condition.lock()
            if cancelled || complete || failure != nil {
                condition.unlock()
                break
            }
            requests += 1
            condition.unlock()
            let request = HTTPRequest(url: url, start: start, end: end, connectTimeout: settings.connectTimeout,
                                      stallTimeout: settings.stallTimeout, asksForStreamTitles: true, ifRange: start > 0 ? validator : nil)
            var received: Int64 = 0
            var titleReader: StreamTitleReader?
            var position = start
            do {
                try HTTPTransfer.run(request, head: { head in
                    guard accept(head, asked: start, position: &position) else { return false }
                    if let interval = head.streamTitleInterval, interval > 0 { titleReader = StreamTitleReader(interval: interval) }
                    return true
                }, body: { bytes in
                    if var reader = titleReader {
                        var keepsGoing = true
                        let titles = reader.read(bytes) { audio in
                            if keepsGoing { keepsGoing = store(audio, at: &position) }
                        }
                        titleReader = reader
                        if let last = titles.last { setTitle(last) }
                        received += Int64(bytes.count)
                        return keepsGoing
                    }
                    received += Int64(bytes.count)
                    return store(bytes, at: &position)
                }, isCancelled: { [condition] in
                    condition.lock()
                    defer { condition.unlock() }
                    return self.cancelled
                })
            } catch let error {
                if error.kind == .cancelled { break }
                // A connection that dropped after bytes came is tried once more from where it stopped.
                let resumable = received > 0 && retries < settings.resumeAttempts && isSeekable
                if resumable {
                    retries += 1
                    start = position
                    end = nil
                    condition.lock()
                    writing = start
                    condition.unlock()
                    continue
                }
                condition.lock()
                failure = error
                condition.broadcast()
                condition.unlock()
                break
            }
            retries = received > 0 ? 0 : retries
            // Where next: where a reader waits, else the first gap, else done.
            condition.lock()
            if let target = wanted {
                wanted = nil
                start = target
                end = nil
            } else if endless || total == nil {
                // An endless stream that ended, or a file whose length was never said: what came is all.
                if total == nil || endless { total = position }
                endless = false
                complete = true
            } else if let total, let gap = ranges.firstGap(from: position, total: total) ?? ranges.firstGap(from: 0, total: total) {
                start = gap.lowerBound
                end = gap.upperBound < total ? gap.upperBound - 1 : nil
            } else {
                complete = true
            }
            // Where the next request writes: a reader waiting there must not ask for it again
            // before its first byte comes.
            writing = start
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        store?.finish()
        condition.unlock()
    }

    /// Takes in a response's head: the first one sets the file's size and validator; a later one
    /// must still be the same file.
    private func accept(_ head: HTTPResponseHead, asked start: Int64, position: inout Int64) -> Bool {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if !headKnown {
            headKnown = true
            validator = head.validator
            station = head.stationName
            rangesServed = head.acceptsRanges || head.status == 206
            if let length = head.totalLength {
                total = length
            } else if head.streamTitleInterval != nil || head.contentLength == nil {
                // No length: radio (ICY), or a body sent in chunks until the server closes.
                endless = true
            }
            do {
                store = try StreamStore(url: url, capacity: endless ? settings.liveWindowBytes : nil, settings: settings)
            } catch {
                failure = HTTPError(.network, "cannot keep the stream: \(error)")
                return false
            }
        } else if head.status == 200 && start > 0 {
            // The server sent the whole file again instead of the range: take it from the start.
            rangesServed = false
        }
        position = head.status == 206 ? head.bodyStart : 0
        writing = position
        return true
    }

    /// Writes a piece at `position` and moves on; false stops the request (cancelled, a reader wants
    /// another place, or it ran into bytes already held).
    private func store(_ bytes: UnsafeRawBufferPointer, at position: inout Int64) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !cancelled, let store else { return false }
        guard store.write(bytes, at: position) else {
            failure = HTTPError(.network, "cannot write the stream's cache file (disk full?)")
            condition.broadcast()
            return false
        }
        let piece = position ..< position + Int64(bytes.count)
        let alreadyHeld = !endless && ranges.contains(piece.upperBound)
        if endless {
            ranges = ByteRanges([store.oldestOffset(writtenTo: piece.upperBound) ..< piece.upperBound])
        } else {
            ranges.insert(piece)
        }
        position = piece.upperBound
        writing = position
        condition.broadcast()
        if wanted != nil { return false }
        // Past the gap this request was filling: the rest is here already.
        return !alreadyHeld
    }

    private func setTitle(_ text: String) {
        condition.lock()
        title = text
        condition.unlock()
    }
}

/// Reads a download without steering it.
private final class StreamFollower: AudioByteSource {
    let download: StreamDownload
    init(download: StreamDownload) { self.download = download }
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) -> AudioByteRead {
        download.read(into: buffer, at: offset, steers: false)
    }
    var size: Int64? { download.size }
    var isSeekable: Bool { download.isSeekable }
}
