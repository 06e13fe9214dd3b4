/// The spectrum as bars: each channel's bands, averaged over the time each band's width needs,
/// scaled to the floor (or by the automatic sensitivity) and arranged, lows meeting in the middle
/// (or at the edges).
public struct SpectrumState: BarVisualState {
    /// Makes the analyzer for a sample rate and a number of bands per channel (nil if it cannot).
    public typealias AnalyzerFactory = (_ sampleRate: Int, _ bandsPerChannel: Int) -> (any BandAnalyzer)?

    public let settings: VisualSettings
    private let makeAnalyzer: AnalyzerFactory
    /// The level drawn as an empty bar (dB), and where the lows go.
    private let floorDB: Float
    private let lowsAtEdges: Bool
    public private(set) var field: BarField
    public private(set) var analyzer: (any BandAnalyzer)?
    /// The analyzer's band powers averaged over the time each band's width needs (see `BandPowerAverager`).
    public private(set) var bandAverager: BandPowerAverager?
    /// The automatic sensitivity; it carries across tracks and devices.
    public private(set) var sensitivity = AutoSensitivity()
    /// The band count asked of the analyzer in use (merging may give fewer), so a new request rebuilds it.
    private var analyzedBandRequest = 0
    /// Band heights 0...1 per channel, reused every frame.
    private var bandHeights: [[Float]] = []

    public init(settings: VisualSettings, makeAnalyzer: @escaping AnalyzerFactory) {
        self.settings = settings
        self.makeAnalyzer = makeAnalyzer
        field = BarField(settings: settings)
        floorDB = Float(settings.configuration[SpectrumSettings.rows.floor])
        lowsAtEdges = settings.configuration[SpectrumSettings.rows.lowsAtEdges]
        sensitivity.spanDB = -floorDB
    }

    public var bands: SpectrumBands? { analyzer?.bands }

    public mutating func update(_ frame: VisualFrame) {
        setTargets(frame)
        field.advance(dt: frame.dt, rangeDB: -floorDB, beatLevel: frame.beatLevel)
    }

    private mutating func setTargets(_ frame: VisualFrame) {
        let feed = frame.feed
        let bandsPerChannel = Swift.max(1, settings.barCount(canvasWidth: frame.canvasWidth) / 2)
        guard let format = feed.format else {
            field.resize(to: 2 * bandsPerChannel)
            return
        }
        if analyzer?.bands.sampleRate != format.sampleRate || analyzedBandRequest != bandsPerChannel {
            analyzer = makeAnalyzer(format.sampleRate, bandsPerChannel)
            analyzedBandRequest = bandsPerChannel
            bandAverager = nil
        }
        guard let analyzer else { return }
        field.resize(to: 2 * analyzer.bands.count)
        guard frame.hasAudio else {
            field.fall()
            bandAverager?.reset()
            return
        }
        let raw = analyzer.analyze { channel, destination in feed.copyLatest(channel: channel, into: destination) }
        if bandAverager?.levels.count != raw.count || bandAverager?.timeConstants.count != analyzer.bands.count {
            bandAverager = BandPowerAverager(bands: analyzer.bands, channelCount: raw.count)
        }
        bandAverager?.advance(toward: raw, dt: frame.dt)
        let levels = bandAverager?.levels ?? raw
        SpectrumScale(floorDB: floorDB).normalize(levels, into: &bandHeights)
        if let gain = settings.sensitivity.fixedGain {
            if gain != 1 { scaleBandHeights { $0 * gain } }
        } else {
            // The spectrum keeps its floor's dB span; the reference follows the loudest band.
            var loudestDB = -Float.infinity
            for channel in levels { for level in channel { loudestDB = Swift.max(loudestDB, level) } }
            let reading = frame.reading
            sensitivity.advance(loudestDB: loudestDB, levelDB: reading.frameCount > 0 ? reading.combinedRMSDB : nil, dt: frame.dt)
            for channel in bandHeights.indices {
                for band in bandHeights[channel].indices {
                    bandHeights[channel][band] = sensitivity.normalized(levels[channel][band], fullScale: 1)
                }
            }
        }
        StereoSpectrum.arrange(bandHeights, lowsAtEdges: lowsAtEdges, into: &field.targets)
    }

    private mutating func scaleBandHeights(_ transform: (Float) -> Float) {
        for channel in bandHeights.indices {
            for band in bandHeights[channel].indices { bandHeights[channel][band] = Swift.min(1, transform(bandHeights[channel][band])) }
        }
    }
}
