import DecibarAudio
import DecibarCore

/// The outputs that send at one pace and one offset, and the analysis they share: its own feed
/// (buffers wait there until heard, like the window's), the window's bar state, and WLED's 16
/// channels with the strongest frequency. Each tick releases the audio heard by then, analyzes
/// it once and hands it to every output of the lane.
///
/// A packet stands for the stretch of audio around the moment it is sent (see `nextSend`).
///
/// Everything but `feed` belongs to the sending thread.
final class OutputLane {
    let period: Double
    /// Seconds on top of when the audio is heard (the outputs' `offset`).
    let offset: Double
    let feed: AudioFeed
    var outputs: [any Output] = []

    /// The window's bars or spectrum (a meter's strip shows the bars).
    private(set) var bars: any BarVisualState
    /// The window's meter, when that is its mode (for a page).
    private(set) var meterState: MeterState?
    private var clock = VisualClock()
    let theme: BarTheme
    /// What the last tick released, and how long it was since the tick before.
    private(set) var reading = LevelReading.silence(channelCount: 2)
    private(set) var dt = 0.0
    /// WLED's channels (dB) and the strongest frequency, when an output asked for them.
    private(set) var channelDB = [Float](repeating: SpectrumBands.floorDB, count: AudioSyncPacket.channelCount)
    private(set) var strongest: (hertz: Double, decibels: Float) = (0, SpectrumBands.floorDB)
    /// A beat was heard since the last tick.
    private(set) var beatHeard = false
    /// A hit was heard since the last tick: a burst until the beat is followed, then a beat. So
    /// lights react from a track's first sound, as a controller's own microphone does, and keep
    /// to the beat once it is known (not every onset of a busy band).
    private(set) var hitHeard = false
    /// The tempo of the beat followed; 0 until one is.
    private(set) var bpm = 0.0
    /// Loudness, when an output asked for it (libebur128 on the released audio).
    private(set) var loudness: LoudnessReading?

    /// How long making a send takes (smoothed, at most 5 ms): the thread wakes early by twice
    /// that and a little more, makes it, then sleeps to the moment and sends, so a machine busy
    /// for a few ms delays the making, not the packets.
    private(set) var lead = 0.0

    private var channelAnalyzer: SpectrumAnalyzer?
    private var mixed: [Float] = []
    private var lastBeat: Double?
    private var lastBurst: Double?
    /// When the last hit marked was heard: the burst of a click and its beat a tick later are one hit.
    private var lastHit = -Double.infinity
    private var lastTick: Double?
    private(set) var nextTick: Double

    init(period: Double, offset: Double, feed: AudioFeed, display: DisplaySettings, start: Double) {
        self.period = period
        self.offset = offset
        self.feed = feed
        theme = display.barTheme
        // Lights and pages take bars or the spectrum; a meter's strip shows the bars.
        let settings = VisualTools.visualSettings(display)
        let page = display.mode.details?.page ?? .bars
        if page == .spectrum {
            bars = SpectrumState(settings: settings) { rate, bands in
                // An estimated plan: made at once (a measured one takes a quarter of a second, a
                // quarter of a second of packets not sent).
                SpectrumAnalyzer(sampleRate: rate, bandCount: bands, channelCount: 2, measuredPlan: false)
            }
        } else {
            bars = LevelBarsState(settings: settings)
        }
        if page == .meter { meterState = MeterState(settings: settings) }
        nextTick = start
    }

    var needsChannels: Bool { outputs.contains { $0.needs.contains(.channels) } }
    var needsLoudness: Bool { outputs.contains { $0.needs.contains(.loudness) } }

    /// When the lane sends next, and the latest heard moment that send releases.
    ///
    /// On its grid, a send at `t` releases the audio heard by `t + period/2`, less half a buffer (a
    /// buffer goes once its first frame is due), so a sound lands in the packet nearest to when it is
    /// heard. A burst or a beat in the waiting audio within half a period of the next grid point
    /// takes that send onto the moment it is heard, and the grid goes on from there: what people see
    /// as a hit leaves with it, not up to half a packet early or late.
    func nextSend() -> (time: Double, heardBy: Double) {
        let halfBuffer = Double(AudioBuffer.frameCapacity / 2) / Double(feed.format?.sampleRate ?? 48_000)
        var heardBy = nextTick + period / 2 - halfBuffer - offset
        if let event = feed.nextEvent {
            if event.time + offset < nextTick + period / 2 {
                return (event.time + offset, event.time + period / 2 - halfBuffer)
            }
            // Not yet: the grid's send leaves the burst's buffer waiting.
            heardBy = Swift.min(heardBy, event.start.nextDown)
        }
        return (nextTick, heardBy)
    }

    /// Releases what is heard by `heardBy`, analyzes it and has every output make what it sends
    /// (`emit` sends it, at `scheduled`); `scheduled` is the time `nextSend` gave, `now` the time it is.
    func prepare(scheduled: Double, heardBy: Double, now: Double) {
        dt = lastTick.map { now - $0 } ?? period
        lastTick = now
        nextTick = scheduled + period
        // A stall skips the ticks it missed rather than sending them all at once.
        if nextTick < now { nextTick = now + period }
        if needsLoudness { feed.measureLoudness { LoudnessMeter() } }
        reading = feed.release(heardBy: heardBy)
        let frame = clock.frame(reading: reading, feed: feed, dt: dt, now: heardBy, canvasWidth: Self.nominalWidth)
        bars.update(frame)
        meterState?.update(frame)
        let pulse = feed.beatPulse
        beatHeard = pulse.lastBeat != nil && pulse.lastBeat != lastBeat
        lastBeat = pulse.lastBeat
        let burst = feed.lastBurst
        let burstHeard = burst != nil && burst != lastBurst
        lastBurst = burst
        // The beat is followed while its beats come sure of their tempo (a bpm is told only then);
        // over a rest they stop, and bursts mark the music's return.
        let isFollowing = pulse.bpm > 0 && pulse.lastBeat.map { heardBy - $0 <= Self.followedPeriods * 60 / pulse.bpm } ?? false
        let hit = isFollowing ? (beatHeard ? pulse.lastBeat : nil) : (burstHeard ? burst : nil)
        hitHeard = hit.map { $0 - lastHit >= Self.hitGap } ?? false
        if hitHeard, let hit { lastHit = hit }
        bpm = isFollowing ? pulse.bpm : 0
        if needsLoudness { loudness = feed.loudness }
        if needsChannels { analyzeChannels() }
        for output in outputs { output.prepare(self, now: scheduled) }
        lead += (Swift.min(0.005, MonotonicClock.now() - now) - lead) * 0.1
    }

    /// Sends what `prepare` made.
    func emit() {
        for output in outputs { output.emit() }
    }

    /// Beat periods after the last beat for which the beat counts as followed.
    static let followedPeriods = 2.0
    /// Hits closer than this are one (s).
    static let hitGap = 0.1

    /// Bars are laid out for a window this wide (the default window's): the count follows
    /// `display.bars` or `bar_width` as the window's would.
    static let nominalWidth = 1280

    /// The mono mix of the newest samples through an FFT, into WLED's 16 channels.
    private func analyzeChannels() {
        guard let format = feed.format else { return }
        if channelAnalyzer?.bands.sampleRate != format.sampleRate {
            // Half the window's FFT (2048 frames at 48 kHz): 43 ms, fine enough for WLED's 43 Hz channels.
            let length = SpectrumBands.fftLength(forSampleRate: format.sampleRate) / 2
            channelAnalyzer = SpectrumAnalyzer(bands: SpectrumBands(sampleRate: format.sampleRate, edges: AudioSyncPacket.channelEdges,
                                                                    fftLength: length), channelCount: 1, measuredPlan: false)
            mixed = Array(repeating: 0, count: length)
        }
        guard let analyzer = channelAnalyzer else { return }
        let feed = self.feed
        let levels = mixed.withUnsafeMutableBufferPointer { right in
            analyzer.analyze { _, left in
                feed.copyLatest(channel: 0, into: left)
                feed.copyLatest(channel: 1, into: right)
                for index in 0 ..< Swift.min(left.count, right.count) { left[index] = 0.5 * (left[index] + right[index]) }
            }
        }
        for index in 0 ..< Swift.min(channelDB.count, levels[0].count) { channelDB[index] = levels[0][index] }
        strongest = analyzer.strongest
    }
}

/// One destination of `--send`: it reads its lane at each tick and sends what it takes.
protocol Output: AnyObject {
    var target: OutputTarget { get }
    /// What its lane must analyze for it beyond levels, bars and beats.
    var needs: OutputNeeds { get }
    /// Makes what it sends from what the lane has just released (on the sending thread, a few
    /// ms ahead of the moment).
    func prepare(_ lane: OutputLane, now: Double)
    /// Sends what `prepare` made (at the moment).
    func emit()
    /// A line for `ctl status` (from any thread): where it sends and what it has sent.
    var statusLine: @Sendable () -> String { get }
}

struct OutputNeeds: OptionSet {
    let rawValue: Int
    static let channels = OutputNeeds(rawValue: 1)
    static let loudness = OutputNeeds(rawValue: 2)
}
