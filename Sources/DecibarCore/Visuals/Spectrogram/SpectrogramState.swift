/// The live spectrogram: a ring of columns, one every `hop` samples of heard audio (200 a second),
/// so it scrolls at the same speed whatever the frame rate; each frame makes the columns whose
/// audio it released, from the feed's newest samples (the channels mixed to one).
public struct SpectrogramState {
    /// Columns a second of audio.
    public static let columnsPerSecond = 200
    /// The ring's columns: more than `secondsShown` at 200 a second.
    public static let capacity = 1024
    /// Seconds the picture shows.
    public static let secondsShown = 5.0
    public static let rowCount = 256
    public static let fftLength = 4096

    /// Makes the analysis for a sample rate (nil if it cannot).
    public typealias AnalysisFactory = (_ sampleRate: Int) -> SpectrogramAnalysis?

    private let makeAnalysis: AnalysisFactory
    public private(set) var analysis: SpectrogramAnalysis?
    /// `capacity` columns of `rowCount` dB values, column after column.
    public private(set) var columns: [Float]
    /// The column made last (its index in the ring), and how many were made in all.
    public private(set) var newest = Self.capacity - 1
    public private(set) var made = 0
    /// The ring's columns made since the caller last took them (`takeChanged`): at most the whole ring.
    public private(set) var changed = 0
    private var pending = 0
    private var hop = 0
    private var samples: [Float]
    private var right: [Float]

    public init(makeAnalysis: @escaping AnalysisFactory) {
        self.makeAnalysis = makeAnalysis
        columns = [Float](repeating: SpectrogramAnalysis.silence, count: Self.capacity * Self.rowCount)
        samples = [Float](repeating: 0, count: Self.fftLength)
        right = samples
    }

    /// Columns that show: `secondsShown` of them.
    public static var shownColumns: Int { Int(secondsShown * Double(columnsPerSecond)) }

    /// Returns how many columns changed since the last call (the newest ones), and forgets them.
    public mutating func takeChanged() -> Int {
        defer { changed = 0 }
        return changed
    }

    public mutating func update(_ frame: VisualFrame) {
        let feed = frame.feed
        guard let format = feed.format else { return }
        if analysis?.sampleRate != format.sampleRate {
            analysis = makeAnalysis(format.sampleRate)
            hop = max(1, format.sampleRate / Self.columnsPerSecond)
            let length = analysis?.fftLength ?? Self.fftLength
            if samples.count != length {
                samples = [Float](repeating: 0, count: length)
                right = samples
            }
            pending = 0
        }
        guard analysis != nil else { return }
        pending += frame.reading.frameCount
        guard pending >= hop else { return }
        let due = pending / hop
        // More columns than fit in the history's reach (a stall): the oldest are made from the
        // oldest samples it still holds.
        for index in 0 ..< due {
            let back = min((due - 1 - index) * hop + pending % hop, AudioFeed.historyLength - samples.count)
            addColumn(feed: feed, samplesBack: back)
        }
        pending %= hop
    }

    private mutating func addColumn(feed: AudioFeed, samplesBack back: Int) {
        samples.withUnsafeMutableBufferPointer { feed.copyLatest(channel: 0, into: $0, endingSamplesBack: back) }
        right.withUnsafeMutableBufferPointer { feed.copyLatest(channel: 1, into: $0, endingSamplesBack: back) }
        for index in samples.indices { samples[index] = 0.5 * (samples[index] + right[index]) }
        newest = (newest + 1) % Self.capacity
        made += 1
        changed = min(Self.capacity, changed + 1)
        let rows = analysis?.rowCount ?? Self.rowCount
        let start = newest * rows
        samples.withUnsafeBufferPointer { block in
            columns.withUnsafeMutableBufferPointer { all in
                analysis?.column(of: block, into: UnsafeMutableBufferPointer(rebasing: all[start ..< start + rows]))
            }
        }
    }
}
