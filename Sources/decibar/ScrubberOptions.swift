import ArgumentParser
import DecibarApp
import DecibarCore

/// How the waveform scrubber (and a video's picture) look: shared by `play` and `render`.
struct ScrubberOptions: ParsableArguments {
    private typealias Key = ConfigSchema.Player

    @Option(name: Key.scrubberBarWidth.option, help: Key.scrubberBarWidth.help) var scrubberBarWidth: Int?
    @Option(name: Key.scrubberBarSpacing.option, help: Key.scrubberBarSpacing.help) var scrubberBarSpacing: Int?
    @Option(name: Key.scrubberFilter.option, help: Key.scrubberFilter.help) var scrubberFilter: String?
    @Flag(name: Key.decibels.option, inversion: .prefixedNo, help: Key.decibels.help) var decibels: Bool?
    @Option(name: Key.noiseFloor.option, parsing: .unconditional, help: Key.noiseFloor.help) var noiseFloor: Double?
    @Flag(name: Key.fillIndicator.option, inversion: .prefixedNo, help: Key.fillIndicator.help) var fillIndicator: Bool?
    @Option(name: Key.follow.option, help: Key.follow.help) var follow: String?
    @Flag(name: Key.scrubAudio.option, inversion: .prefixedNo, help: Key.scrubAudio.help) var scrubAudio: Bool?
    @Option(name: Key.videoLayout.option, help: Key.videoLayout.help) var videoLayout: VideoLayout?
    func validate() throws {
        _ = try layer()
    }

    /// The options given, as a layer over the config file, each checked by its row.
    func layer() throws -> Configuration {
        var layer = Configuration()
        try layer.put(Key.scrubberBarWidth, scrubberBarWidth.map { .number(Double($0)) })
        try layer.put(Key.scrubberBarSpacing, scrubberBarSpacing.map { .number(Double($0)) })
        try layer.put(Key.scrubberFilter, scrubberFilter.map { .string($0) })
        try layer.put(Key.decibels, decibels.map { .bool($0) })
        try layer.put(Key.noiseFloor, noiseFloor.map { .number($0) })
        try layer.put(Key.fillIndicator, fillIndicator.map { .bool($0) })
        try layer.put(Key.follow, follow.map { .string($0) })
        try layer.put(Key.scrubAudio, scrubAudio.map { .bool($0) })
        try layer.put(Key.videoLayout, videoLayout.map { .string($0.rawValue) })
        return layer
    }

    /// What the app takes: the file's values with these options over them.
    func settings(over file: Configuration) throws -> ScrubberSettings {
        ScrubberSettings(configuration: file.merging(try layer()))
    }
}
