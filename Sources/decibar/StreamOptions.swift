import ArgumentParser
import DecibarApp
import DecibarCore

/// How tracks given as http(s):// addresses are fetched.
struct StreamOptions: ParsableArguments {
    private typealias Key = ConfigSchema.Player

    @Option(name: Key.streamTimeout.option, help: Key.streamTimeout.help) var streamTimeout: Double?
    @Option(name: Key.connectTimeout.option, help: Key.connectTimeout.help) var connectTimeout: Double?
    @Option(name: Key.streamCacheSize.option, help: Key.streamCacheSize.help) var streamCacheSize: String?
    @Option(name: Key.streamStart.option, help: Key.streamStart.help) var streamStart: Double?

    func validate() throws {
        _ = try layer()
    }

    /// The options given, as a layer over the config file, each checked by its row.
    func layer() throws -> Configuration {
        var layer = Configuration()
        try layer.put(Key.streamTimeout, streamTimeout.map(JSONValue.number))
        try layer.put(Key.connectTimeout, connectTimeout.map(JSONValue.number))
        try layer.put(Key.streamCacheSize, streamCacheSize.map(JSONValue.string))
        try layer.put(Key.streamStart, streamStart.map(JSONValue.number))
        return layer
    }

    func settings(over file: Configuration) throws -> StreamSettings {
        StreamSettings(configuration: file.merging(try layer()))
    }
}
