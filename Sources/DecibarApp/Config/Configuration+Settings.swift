import DecibarCore

extension DisplaySettings {
    /// The look the configuration describes; what only the command line sets (recording, exit,
    /// screenshot) keeps its default.
    public init(configuration c: Configuration) {
        let rows = ConfigSchema.display
        VisualCatalog.prepare()
        self.init()
        configuration = c
        mode = c[rows.mode]
        bars = c[rows.bars]
        theme = c[rows.theme]
        barWidth = c[rows.barWidth]
        barSpacing = barWidth == nil ? nil : c[rows.barSpacing]
        orientation = c[rows.orientation]
        arrangement = c[rows.layout]
        radialLayout = RadialLayout(innerRadius: c[rows.innerRadius], gap: c[rows.radialGap], rotation: c[rows.rotation])
        background = c[rows.background]
        borderless = c[rows.borderless]
        layer = c[rows.layer]
        // Over other windows, the theme's background would hide them: see-through instead.
        if layer.isAboveWindows && background == .opaque { background = .transparent }
        monitor = c[rows.monitor]
        placement = LayerPlacement(anchor: c[rows.anchor], thickness: c[rows.stripHeight], margin: c[rows.margin])
        caps = c[rows.caps]
        beatAccent = c[rows.beatAccent]
        hold = c[rows.hold]
        fall = Float(c[rows.fall])
        shader = c[rows.shader]
        shaderDirectory = c[rows.shaderDirectory]
        size = c[rows.size]
        fullscreen = c[rows.fullscreen]
        fps = c[rows.fps]
        attack = c[rows.attack]
        release = c[rows.release]
        floor = Float(c[rows.floor])
        sensitivity = c[rows.sensitivity]
    }
}

extension ScrubberSettings {
    public init(configuration c: Configuration) {
        let rows = ConfigSchema.player
        self.init()
        kind = c[rows.scrubber]
        colorMap = c[SpectrogramSettings.rows.colorMap]
        spectrogramFloor = Float(c[SpectrogramSettings.rows.floor])
        barWidth = c[rows.scrubberBarWidth]
        barSpacing = c[rows.scrubberBarSpacing]
        filter = c[rows.scrubberFilter]
        decibels = c[rows.decibels]
        noiseFloor = Float(c[rows.noiseFloor])
        fillIndicator = c[rows.fillIndicator]
        follow = c[rows.follow]
        scrubAudio = c[rows.scrubAudio]
        videoLayout = c[rows.videoLayout]
    }
}

extension StreamSettings {
    public init(configuration c: Configuration) {
        let rows = ConfigSchema.player
        self.init()
        cacheBytes = c[rows.streamCacheSize]
        stallTimeout = c[rows.streamTimeout]
        connectTimeout = c[rows.connectTimeout]
        startSeconds = c[rows.streamStart]
    }
}
