/// Everything a visualizer shows, without drawing it: per display frame, the audio released since
/// the previous one becomes bar targets (bars and spectrum modes) or meter readings, smoothed on the
/// measured `dt`. The window and the offline render draw from it; tests drive it with exact numbers.
///
/// `update` allocates nothing once the bar count is settled: every array is kept and reused.
public struct VisualizerState {
    public struct Settings: Sendable {
        /// Bars to draw; nil: as many as fit `layout`'s fixed width, else `defaultBarCount`.
        public var bars: Int?
        public var layout = BarLayout()
        public var smoothing = SmoothingTimes.default
        public var levelScale = LevelScale(floorDB: -60, ceilingDB: 0)
        public var caps = false
        /// Bars lift on each beat (`barValues` then include the lift).
        public var beatAccent = false
        /// Caps' (and the meter's hold line's) hold, in seconds, then fall, in dB/s.
        public var holdTime = 1.0
        public var fallRate: Float = LevelMeter.defaultHoldFallRate
        public var ballistics: MeterBallistics = .digital
        public var spectrumFloor: Float = -70
        public var lowsAtEdges = false
        public var sensitivity = Sensitivity.automatic
        /// The meter's scale, and loudness targets marked on its loudness bars, in LUFS.
        public var meterScale = MeterScale.dbfs
        public var loudnessTargets: [Double] = []

        public init() {}
    }

    /// Makes the analyzer for a sample rate and a number of bands per channel (nil if it cannot).
    public typealias AnalyzerFactory = (_ sampleRate: Int, _ bandsPerChannel: Int) -> (any BandAnalyzer)?

    public let settings: Settings
    public var mode: VisualMode
    private let makeAnalyzer: AnalyzerFactory

    public private(set) var smoother: BarSmoother
    public private(set) var targets: [Float] = []
    public private(set) var caps: PeakCaps
    public private(set) var meter: LevelMeter
    public private(set) var meterChannels = 2
    /// The loudness the meter shows (nil until the feed measures it).
    public private(set) var loudness: LoudnessReading?
    public private(set) var analyzer: (any BandAnalyzer)?
    /// The analyzer's band powers averaged over the time each band's width needs (see `BandPowerAverager`).
    public private(set) var bandAverager: BandPowerAverager?
    /// The automatic sensitivity of bars and of the spectrum; they carry across tracks and devices,
    /// as the visualizer does.
    public private(set) var autoSensitivity = AutoSensitivity()
    public private(set) var spectrumSensitivity = AutoSensitivity()
    /// The band count asked of the analyzer in use (merging may give fewer), so a new request rebuilds it.
    private var analyzedBandRequest = 0
    /// Band heights 0...1 per channel, reused every frame.
    private var bandHeights: [[Float]] = []
    /// The meter's inputs, reused every frame.
    private var meterRMS: [Float] = []
    private var meterPeaks: [Float] = []
    private var lastAudio = -Double.infinity

    /// With no audio for this long (server gone, paused, silence from a stopped player), bars fall.
    public static let silenceAfter = 0.1
    public static let meterFloorDB: Float = -70
    public static let defaultBarCount = 48
    /// A bar this low counts as empty for the window to rest.
    static let restingValue: Float = 0.0005

    public init(settings: Settings, mode: VisualMode, makeAnalyzer: @escaping AnalyzerFactory) {
        self.settings = settings
        self.mode = mode
        self.makeAnalyzer = makeAnalyzer
        smoother = BarSmoother(count: 0, times: settings.smoothing)
        caps = PeakCaps(count: 0, fallRate: 0)
        meter = Self.makeMeter(settings: settings, channels: 2)
        spectrumSensitivity.spanDB = -settings.spectrumFloor
    }

    private static func makeMeter(settings: Settings, channels: Int) -> LevelMeter {
        LevelMeter(channelCount: channels, ballistics: settings.ballistics, holdTime: settings.holdTime,
                   holdFallRate: settings.fallRate, floorDB: meterFloorDB)
    }

    /// How many bars a canvas `width` pixels wide shows in bars or spectrum mode.
    public func barCount(canvasWidth width: Int) -> Int {
        settings.bars ?? settings.layout.fittingCount(canvasWidth: width) ?? Self.defaultBarCount
    }

    /// The bar values as drawn (smoothed, lifted on the beat with `beatAccent`), 0...1.
    public var barValues: [Float] { settings.beatAccent ? lifted : smoother.values }

    /// The beat heard by the last update, and its shader values then: `u_beat` (1 at the beat,
    /// decaying) and `u_beat_phase` (0...1 across the beat).
    public private(set) var beat = BeatPulse()
    public private(set) var beatLevel: Float = 0
    public private(set) var beatPhase: Float = 0
    /// The smoothed values lifted by the beat (bars and spectrum with `beatAccent`).
    private var lifted: [Float] = []
    /// How much taller bars are at the beat: a short lift, gone in a few tenths of a second.
    static let beatLift: Float = 0.18

    /// Moves on by `dt`: `reading` covers the audio released from `feed` this frame.
    public mutating func update(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, canvasWidth: Int) {
        defer { updateBeat(feed: feed, now: now) }
        if reading.frameCount > 0 { lastAudio = now }
        let hasAudio = now - lastAudio <= Self.silenceAfter
        switch mode {
        case .bars:
            resize(to: barCount(canvasWidth: canvasWidth))
            if reading.frameCount > 0 {
                let scale = settings.levelScale
                if let gain = settings.sensitivity.fixedGain {
                    SymmetricBars.fill(&targets, level: scale.normalized(reading.combinedRMSDB) * gain,
                                       peak: scale.normalized(reading.combinedPeakDB) * gain)
                } else {
                    autoSensitivity.advance(loudestDB: reading.combinedPeakDB, levelDB: reading.combinedRMSDB, dt: dt)
                    let full = SymmetricBars.fullScale
                    SymmetricBars.fill(&targets, level: autoSensitivity.normalized(reading.combinedRMSDB, fullScale: full),
                                       peak: autoSensitivity.normalized(reading.combinedPeakDB, fullScale: full))
                }
            } else if !hasAudio {
                for index in targets.indices { targets[index] = 0 }
            }
            advanceBars(dt: dt, rangeDB: -settings.levelScale.floorDB)
        case .spectrum:
            updateSpectrum(feed: feed, reading: reading, hasAudio: hasAudio, dt: dt, canvasWidth: canvasWidth)
            advanceBars(dt: dt, rangeDB: -settings.spectrumFloor)
        case .meter:
            let channels = Swift.min(2, feed.format?.channelCount ?? 2)
            if channels != meterChannels {
                meterChannels = channels
                meter = Self.makeMeter(settings: settings, channels: channels)
            }
            let floor = Self.meterFloorDB
            if meterRMS.count != channels {
                meterRMS = Array(repeating: floor, count: channels)
                meterPeaks = meterRMS
            }
            for channel in 0 ..< channels {
                meterRMS[channel] = hasAudio ? feed.windowRMSDB(channel: channel) : floor
                meterPeaks[channel] = reading.frameCount > 0 && channel < reading.channelCount ? reading.peakDB(channel: channel) : floor
            }
            meter.advance(rmsDB: meterRMS, peakDB: meterPeaks, dt: dt)
            loudness = feed.loudness
        }
    }

    private mutating func updateBeat(feed: AudioFeed, now: Double) {
        beat = feed.beatPulse
        beatLevel = beat.level(at: now)
        beatPhase = beat.phase(at: now)
        guard settings.beatAccent, mode != .meter else { return }
        lifted.removeAll(keepingCapacity: true)
        let lift = 1 + Self.beatLift * beatLevel
        for value in smoother.values { lifted.append(Swift.min(1, value * lift)) }
    }

    /// True when nothing on screen would change: every bar and cap has settled at the floor (or
    /// the meter at its floor, lamps out). A window then skips drawing.
    public var isAtRest: Bool {
        switch mode {
        case .meter:
            return (0 ..< meterChannels).allSatisfy {
                let reading = meter.reading(channel: $0)
                return reading.peakDB <= Self.meterFloorDB && reading.holdDB <= Self.meterFloorDB && !reading.isClipping
                    && reading.rmsDB <= Self.meterFloorDB
            }
        case .bars, .spectrum:
            let settled = smoother.values.allSatisfy { $0 < Self.restingValue } && targets.allSatisfy { $0 == 0 }
            return settled && (!settings.caps || caps.values.allSatisfy { $0 < Self.restingValue })
        }
    }

    /// The mean bar value, 0...1 (the meter's: its peaks on the dB scale), for the latency benchmarks.
    public var meanValue: Float {
        switch mode {
        case .meter:
            var sum: Float = 0
            for channel in 0 ..< meterChannels { sum += (meter.reading(channel: channel).peakDB - Self.meterFloorDB) / -Self.meterFloorDB }
            return sum / Float(Swift.max(1, meterChannels))
        case .bars, .spectrum:
            var sum: Float = 0
            for value in smoother.values { sum += value }
            return sum / Float(Swift.max(1, smoother.values.count))
        }
    }

    private mutating func resize(to count: Int) {
        guard count != targets.count else { return }
        targets = Array(repeating: 0, count: count)
        smoother = BarSmoother(count: count, times: settings.smoothing)
        caps = PeakCaps(count: count, holdTime: settings.holdTime, fallRate: 0)
    }

    private mutating func advanceBars(dt: Double, rangeDB: Float) {
        smoother.advance(toward: targets, dt: dt)
        if settings.caps {
            // Caps fall in dB/s; bar heights span `rangeDB` dB.
            caps.fallRate = settings.fallRate / Swift.max(1, rangeDB)
            caps.advance(toward: smoother.values, dt: dt)
        }
    }

    private mutating func updateSpectrum(feed: AudioFeed, reading: LevelReading, hasAudio: Bool, dt: Double, canvasWidth: Int) {
        let bandsPerChannel = Swift.max(1, barCount(canvasWidth: canvasWidth) / 2)
        guard let format = feed.format else {
            resize(to: 2 * bandsPerChannel)
            return
        }
        if analyzer?.bands.sampleRate != format.sampleRate || analyzedBandRequest != bandsPerChannel {
            analyzer = makeAnalyzer(format.sampleRate, bandsPerChannel)
            analyzedBandRequest = bandsPerChannel
            bandAverager = nil
        }
        guard let analyzer else { return }
        resize(to: 2 * analyzer.bands.count)
        guard hasAudio else {
            for index in targets.indices { targets[index] = 0 }
            bandAverager?.reset()
            return
        }
        let raw = analyzer.analyze { channel, destination in feed.copyLatest(channel: channel, into: destination) }
        if bandAverager?.levels.count != raw.count || bandAverager?.timeConstants.count != analyzer.bands.count {
            bandAverager = BandPowerAverager(bands: analyzer.bands, channelCount: raw.count)
        }
        bandAverager?.advance(toward: raw, dt: dt)
        let levels = bandAverager?.levels ?? raw
        SpectrumScale(floorDB: settings.spectrumFloor).normalize(levels, into: &bandHeights)
        if let gain = settings.sensitivity.fixedGain {
            if gain != 1 { scaleBandHeights { $0 * gain } }
        } else {
            // The spectrum keeps its floor's dB span; the reference follows the loudest band.
            var loudestDB = -Float.infinity
            for channel in levels { for level in channel { loudestDB = Swift.max(loudestDB, level) } }
            spectrumSensitivity.advance(loudestDB: loudestDB, levelDB: reading.frameCount > 0 ? reading.combinedRMSDB : nil, dt: dt)
            for channel in bandHeights.indices {
                for band in bandHeights[channel].indices {
                    bandHeights[channel][band] = spectrumSensitivity.normalized(levels[channel][band], fullScale: 1)
                }
            }
        }
        StereoSpectrum.arrange(bandHeights, lowsAtEdges: settings.lowsAtEdges, into: &targets)
    }

    private mutating func scaleBandHeights(_ transform: (Float) -> Float) {
        for channel in bandHeights.indices {
            for band in bandHeights[channel].indices { bandHeights[channel][band] = Swift.min(1, transform(bandHeights[channel][band])) }
        }
    }
}
