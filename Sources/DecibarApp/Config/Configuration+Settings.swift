import DecibarCore

extension DisplaySettings {
    /// The look the configuration describes; what only the command line sets (recording, exit,
    /// screenshot) keeps its default.
    public init(configuration c: Configuration) {
        typealias Key = ConfigSchema.Display
        VisualCatalog.prepare()
        self.init()
        mode = c[Key.mode]
        bars = c[Key.bars]
        theme = c[Key.theme]
        barWidth = c[Key.barWidth]
        barSpacing = barWidth == nil ? nil : c[Key.barSpacing]
        orientation = c[Key.orientation]
        arrangement = c[Key.layout]
        radialLayout = RadialLayout(innerRadius: c[Key.innerRadius], gap: c[Key.radialGap], rotation: c[Key.rotation])
        background = c[Key.background]
        borderless = c[Key.borderless]
        layer = c[Key.layer]
        // Over other windows, the theme's background would hide them: see-through instead.
        if layer.isAboveWindows && background == .opaque { background = .transparent }
        monitor = c[Key.monitor]
        placement = LayerPlacement(anchor: c[Key.anchor], thickness: c[Key.stripHeight], margin: c[Key.margin])
        caps = c[Key.caps]
        beatAccent = c[Key.beatAccent]
        hold = c[Key.hold]
        fall = Float(c[Key.fall])
        ballistics = c[Key.ballistics]
        meterScale = c[Key.meterScale]
        loudnessTargets = c[Key.loudnessTargets]
        spectrumFloor = Float(c[Key.spectrumFloor])
        lowsAtEdges = c[Key.lowsAtEdges]
        colorMap = c[Key.colorMap]
        spectrogramFloor = Float(c[Key.spectrogramFloor])
        scopeAutoGain = c[Key.scopeAutoGain]
        shader = c[Key.shader]
        shaderDirectory = c[Key.shaderDirectory]
        preset = c[Key.preset]
        presetDirectories = c[Key.presetDirectories]
        allPresets = c[Key.allPresets]
        presetShuffle = c[Key.presetShuffle]
        presetDuration = c[Key.presetDuration]
        seed = c[Key.seed]
        milkdropScale = c[Key.milkdropScale]
        size = c[Key.size]
        fullscreen = c[Key.fullscreen]
        fps = c[Key.fps]
        attack = c[Key.attack]
        release = c[Key.release]
        floor = Float(c[Key.floor])
        sensitivity = c[Key.sensitivity]
    }
}

extension ScrubberSettings {
    public init(configuration c: Configuration) {
        typealias Key = ConfigSchema.Player
        self.init()
        kind = c[Key.scrubber]
        colorMap = c[ConfigSchema.Display.colorMap]
        spectrogramFloor = Float(c[ConfigSchema.Display.spectrogramFloor])
        barWidth = c[Key.scrubberBarWidth]
        barSpacing = c[Key.scrubberBarSpacing]
        filter = c[Key.scrubberFilter]
        decibels = c[Key.decibels]
        noiseFloor = Float(c[Key.noiseFloor])
        fillIndicator = c[Key.fillIndicator]
        follow = c[Key.follow]
        scrubAudio = c[Key.scrubAudio]
        videoLayout = c[Key.videoLayout]
    }
}

extension StreamSettings {
    public init(configuration c: Configuration) {
        typealias Key = ConfigSchema.Player
        self.init()
        cacheBytes = c[Key.streamCacheSize]
        stallTimeout = c[Key.streamTimeout]
        connectTimeout = c[Key.connectTimeout]
        startSeconds = c[Key.streamStart]
    }
}
