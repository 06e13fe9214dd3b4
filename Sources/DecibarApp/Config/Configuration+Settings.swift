import DecibarCore

extension DisplaySettings {
    /// The look the configuration describes; what only the command line sets (recording, exit,
    /// screenshot) keeps its default.
    public init(configuration c: Configuration) {
        self.init()
        mode = c.string("display.mode").flatMap(VisualMode.init) ?? mode
        bars = c.number("display.bars").map { Int($0) }
        theme = c.string("display.theme") ?? theme
        barWidth = c.number("display.bar_width").map { Int($0) }
        barSpacing = c.number("display.bar_spacing").map { Int($0) }
        if barWidth == nil { barSpacing = nil }
        orientation = c.string("display.orientation").flatMap(BarOrientation.init) ?? orientation
        background = c.string("display.background").flatMap(BackgroundStyle.init) ?? background
        borderless = c.bool("display.borderless")
        caps = c.bool("display.caps")
        hold = c.number("display.hold") ?? hold
        fall = c.number("display.fall").map { Float($0) } ?? fall
        ballistics = c.string("display.ballistics").flatMap(MeterBallistics.init) ?? ballistics
        meterScale = c.string("display.meter_scale").flatMap(MeterScale.init) ?? meterScale
        loudnessTargets = c.numbers("display.loudness_targets")
        spectrumFloor = c.number("display.spectrum_floor").map { Float($0) } ?? spectrumFloor
        lowsAtEdges = c.bool("display.lows_at_edges")
        shaderDirectory = c.string("display.shader_dir")
        if let text = c.string("display.size"), let size = WindowSize(text: text) { self.size = size }
        fullscreen = c.bool("display.fullscreen")
        attack = c.number("display.attack")
        release = c.number("display.release")
        floor = c.number("display.floor").map { Float($0) } ?? floor
        switch c["display.sensitivity"] {
        case .number(let gain)?: sensitivity = .fixed(decibels: Float(gain))
        case .string("off")?: sensitivity = .off
        default: sensitivity = .automatic
        }
    }
}

extension ScrubberSettings {
    public init(configuration c: Configuration) {
        self.init()
        barWidth = c.number("player.scrubber_bar_width").map { Int($0) } ?? barWidth
        barSpacing = c.number("player.scrubber_bar_spacing").map { Int($0) } ?? barSpacing
        filter = c.string("player.scrubber_filter").flatMap(ScrubberFilter.init) ?? filter
        decibels = c.bool("player.decibels")
        noiseFloor = c.number("player.noise_floor").map { Float($0) } ?? noiseFloor
        fillIndicator = c.bool("player.fill_indicator")
        videoLayout = c.string("player.video_layout").flatMap(VideoLayout.init) ?? videoLayout
    }
}

extension StreamSettings {
    public init(configuration c: Configuration) {
        self.init()
        cacheBytes = c.string("player.stream_cache_size").flatMap(ConfigKey.byteSize) ?? cacheBytes
        stallTimeout = c.number("player.stream_timeout") ?? stallTimeout
        connectTimeout = c.number("player.connect_timeout") ?? connectTimeout
        startSeconds = c.number("player.stream_start") ?? startSeconds
    }
}
