import DecibarAudio
import DecibarCore
import DecibarRender
import Foundation

/// What both windows draw above everything else: level bars, a spectrum or a meter, with caps,
/// labels and the user's shaders. Each frame `update` turns the newly heard audio into bar values
/// (smoothed on the measured dt) and `draw` puts them on screen.
final class Visualizer {
    let options: DisplaySettings
    let theme: BarTheme
    var mode: VisualMode
    let layout: BarLayout

    let barRenderer: BarRenderer
    let rects: RectRenderer
    let labels: TextRenderer?
    let userShaders: UserShaders?
    let shaderPass: ShaderPassRenderer?

    var smoother: BarSmoother
    var targets: [Float] = []
    var caps: PeakCaps
    var meter = LevelMeter(channelCount: 2)
    var meterChannels = 2
    /// The meter's inputs, reused every frame.
    private var meterRMS: [Float] = []
    private var meterPeaks: [Float] = []
    var analyzer: SpectrumAnalyzer?
    /// The band count asked of the analyzer in use (merging may give fewer), so a new request rebuilds it.
    private var analyzedBandRequest = 0
    /// Band heights 0...1 per channel, reused every frame.
    private var bandHeights: [[Float]] = []
    private var lastAudio = -Double.infinity
    var startTime: Double

    /// With no audio for this long (server gone, paused, silence from a stopped player), bars fall.
    static let silenceAfter = 0.1
    static let meterFloorDB: Float = -70
    static let defaultBarCount = 48

    /// Bit-identical output from run to run (offline renders): FFTW plans are estimated, not timed.
    let isDeterministic: Bool

    init(options: DisplaySettings, shaders: ShaderLibrary, labelSize: Int, now: Double, deterministic: Bool = false) throws(RenderError) {
        self.options = options
        isDeterministic = deterministic
        theme = options.barTheme
        mode = options.mode
        layout = options.barLayout
        barRenderer = try BarRenderer(shaders: shaders)
        rects = try RectRenderer(shaders: shaders)
        labels = try? TextRenderer(shaders: shaders, pixelSize: labelSize)
        if let directory = options.shaderDirectory {
            let pass = try ShaderPassRenderer(shaders: shaders)
            shaderPass = pass
            userShaders = UserShaders(directory: directory, renderer: pass)
        } else {
            shaderPass = nil
            userShaders = nil
        }
        smoother = BarSmoother(count: 0, times: options.smoothing)
        caps = PeakCaps(count: 0, fallRate: 0)
        meter = Self.makeMeter(options: options, channels: 2)
        startTime = now
    }

    private static func makeMeter(options: DisplaySettings, channels: Int) -> LevelMeter {
        LevelMeter(channelCount: channels, ballistics: options.ballistics, holdTime: options.hold / 1000,
                   holdFallRate: options.fall, floorDB: meterFloorDB)
    }

    /// The color to clear the window to.
    var clearColor: Color { options.background.color(theme: theme) }

    /// The mean bar value (for the latency benchmarks' frame log).
    var meanValue: Float {
        switch mode {
        case .meter:
            var sum: Float = 0
            for channel in 0 ..< meterChannels { sum += (meter.reading(channel: channel).peakDB - Self.meterFloorDB) / -Self.meterFloorDB }
            return sum / Float(max(1, meterChannels))
        case .bars, .spectrum:
            return smoother.values.reduce(0, +) / Float(max(1, smoother.values.count))
        }
    }

    /// True when nothing on screen would change: every bar and cap has settled at the floor and no
    /// user shader animates. The window then skips drawing.
    var isAtRest: Bool {
        guard userShaders == nil else { return false }
        switch mode {
        case .meter:
            return (0 ..< meterChannels).allSatisfy {
                let reading = meter.reading(channel: $0)
                return reading.peakDB <= Self.meterFloorDB && reading.holdDB <= Self.meterFloorDB && !reading.isClipping
                    && reading.rmsDB <= Self.meterFloorDB
            }
        case .bars, .spectrum:
            let settled = smoother.values.allSatisfy { $0 < 0.0005 } && targets.allSatisfy { $0 == 0 }
            return settled && (!options.caps || caps.values.allSatisfy { $0 < 0.0005 })
        }
    }

    func handle(_ key: PlayerKey) {
        switch key {
        case .cycleMode: mode = mode.next
        case .cycleShader: userShaders?.next()
        default: break
        }
    }

    /// How many bars a canvas `width` pixels wide shows in bars or spectrum mode.
    func barCount(canvasWidth width: Int) -> Int {
        options.bars ?? layout.fittingCount(canvasWidth: width) ?? Self.defaultBarCount
    }

    /// Moves the display on by `dt`: `reading` covers the audio released from `feed` this frame.
    func update(reading: LevelReading, feed: AudioFeed, dt: Double, now: Double, canvasWidth: Int) {
        if reading.frameCount > 0 { lastAudio = now }
        let hasAudio = now - lastAudio <= Self.silenceAfter
        userShaders?.refresh(now: now)
        switch mode {
        case .bars:
            let count = barCount(canvasWidth: canvasWidth)
            resize(to: count)
            if reading.frameCount > 0 {
                let scale = options.levelScale
                SymmetricBars.fill(&targets, level: scale.normalized(reading.combinedRMSDB), peak: scale.normalized(reading.combinedPeakDB))
            } else if !hasAudio {
                for index in targets.indices { targets[index] = 0 }
            }
            advanceBars(dt: dt, rangeDB: -options.floor)
        case .spectrum:
            updateSpectrum(feed: feed, hasAudio: hasAudio, canvasWidth: canvasWidth)
            advanceBars(dt: dt, rangeDB: -options.spectrumFloor)
        case .meter:
            let channels = min(2, feed.format?.channelCount ?? 2)
            if channels != meterChannels {
                meterChannels = channels
                meter = Self.makeMeter(options: options, channels: channels)
            }
            let floor = Self.meterFloorDB
            if meterRMS.count != channels {
                meterRMS = Array(repeating: floor, count: channels)
                meterPeaks = meterRMS
            }
            for channel in 0 ..< channels {
                meterRMS[channel] = hasAudio ? feed.windowRMSDB(channel: channel) : floor
                meterPeaks[channel] = reading.frameCount > 0 && channel < reading.peakDB.count ? reading.peakDB[channel] : floor
            }
            meter.advance(rmsDB: meterRMS, peakDB: meterPeaks, dt: dt)
        }
    }

    private func resize(to count: Int) {
        guard count != targets.count else { return }
        targets = Array(repeating: 0, count: count)
        smoother = BarSmoother(count: count, times: options.smoothing)
        caps = PeakCaps(count: count, holdTime: options.hold / 1000, fallRate: 0)
    }

    private func advanceBars(dt: Double, rangeDB: Float) {
        smoother.advance(toward: targets, dt: dt)
        if options.caps {
            // Caps fall in dB/s; bar heights span `rangeDB` dB.
            caps.fallRate = options.fall / max(1, rangeDB)
            caps.advance(toward: smoother.values, dt: dt)
        }
    }

    private func updateSpectrum(feed: AudioFeed, hasAudio: Bool, canvasWidth: Int) {
        let bandsPerChannel = max(1, barCount(canvasWidth: canvasWidth) / 2)
        guard let format = feed.format else {
            resize(to: 2 * bandsPerChannel)
            return
        }
        if analyzer?.bands.sampleRate != format.sampleRate || analyzedBandRequest != bandsPerChannel {
            analyzer = SpectrumAnalyzer(sampleRate: format.sampleRate, bandCount: bandsPerChannel, channelCount: 2,
                                        measuredPlan: !isDeterministic)
            analyzedBandRequest = bandsPerChannel
        }
        guard let analyzer else { return }
        resize(to: 2 * analyzer.bands.count)
        guard hasAudio else {
            for index in targets.indices { targets[index] = 0 }
            return
        }
        let levels = analyzer.analyze { channel, destination in feed.copyLatest(channel: channel, into: destination) }
        SpectrumScale(floorDB: options.spectrumFloor).normalize(levels, into: &bandHeights)
        StereoSpectrum.arrange(bandHeights, lowsAtEdges: options.lowsAtEdges, into: &targets)
    }
}
