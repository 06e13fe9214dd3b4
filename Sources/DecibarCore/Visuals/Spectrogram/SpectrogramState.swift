/// The live spectrogram: a ring of columns, one every `hop` samples of heard audio (200 a second),
/// made as each buffer is released, so it scrolls at the same speed whatever the frame rate and a
/// render's frame k holds exactly the columns of what is heard by k/fps, however few frames a second.
public struct SpectrogramState {
    /// Columns a second of audio.
    public static let columnsPerSecond = 200
    /// The ring's columns: more than `secondsShown` at 200 a second.
    public static let capacity = 1024
    /// Seconds the picture shows.
    public static let secondsShown = 5.0
    public static let rowCount = 512
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
    /// The newest `fftLength` samples, a ring written at `written`, and a block to analyze (reused).
    private var window: [Float]
    private var block: [Float]
    private var written = 0

    public init(makeAnalysis: @escaping AnalysisFactory) {
        self.makeAnalysis = makeAnalysis
        columns = [Float](repeating: SpectrogramAnalysis.silence, count: Self.capacity * Self.rowCount)
        window = [Float](repeating: 0, count: Self.fftLength)
        block = window
    }

    /// Columns that show: `secondsShown` of them.
    public static var shownColumns: Int { Int(secondsShown * Double(columnsPerSecond)) }

    /// Returns how many columns changed since the last call (the newest ones), and forgets them.
    public mutating func takeChanged() -> Int {
        defer { changed = 0 }
        return changed
    }

    /// One buffer as it is released: its samples (the channels mixed to one) into the window, and a
    /// column each time `hop` more have come.
    public mutating func add(_ buffer: AudioBuffer) {
        if analysis?.sampleRate != buffer.sampleRate {
            analysis = makeAnalysis(buffer.sampleRate)
            hop = max(1, buffer.sampleRate / Self.columnsPerSecond)
            pending = 0
            let length = analysis?.fftLength ?? Self.fftLength
            if window.count != length {
                window = [Float](repeating: 0, count: length)
                block = window
            }
            written = 0
        }
        guard analysis != nil else { return }
        let channels = buffer.channelCount, second = channels > 1 ? 1 : 0
        buffer.withSamples { samples in
            for frame in 0 ..< buffer.frameCount {
                window[written] = 0.5 * (samples[frame * channels] + samples[frame * channels + second])
                written = (written + 1) % window.count
                pending += 1
                if pending == hop {
                    pending = 0
                    addColumn()
                }
            }
        }
    }

    private mutating func addColumn() {
        // The window's samples in order, oldest first: it is a ring whose oldest sample is at `written`.
        let count = window.count
        for index in 0 ..< count { block[index] = window[(written + index) % count] }
        newest = (newest + 1) % Self.capacity
        made += 1
        changed = min(Self.capacity, changed + 1)
        let rows = analysis?.rowCount ?? Self.rowCount
        let start = newest * rows
        block.withUnsafeBufferPointer { samples in
            columns.withUnsafeMutableBufferPointer { all in
                analysis?.column(of: samples, into: UnsafeMutableBufferPointer(rebasing: all[start ..< start + rows]))
            }
        }
    }
}
