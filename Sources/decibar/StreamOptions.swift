import ArgumentParser
import DecibarApp
import DecibarCore
import Foundation

/// How tracks given as http(s):// addresses are fetched.
struct StreamOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Seconds a stream's server may send nothing (before its answer or mid-track) before the track counts as failed (default 10).",
                                            valueName: "seconds"))
    var streamTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a connection to a stream's server (default 10).", valueName: "seconds"))
    var connectTimeout: Double?

    @Option(name: .long, help: ArgumentHelp("How much the cache of streamed tracks may hold, e.g. 500M or 2G (default 1G; least recently used go first).",
                                            valueName: "size"))
    var streamCacheSize: String?

    @Option(name: .long, help: ArgumentHelp("Seconds of a stream decoded before it plays, and again after the network fell behind: 0.1 to 1 (default 1).",
                                            valueName: "seconds"))
    var streamStart: Double?

    func validate() throws {
        _ = try layer()
    }

    /// The options given, as a layer over the config file (checked as the file's values are).
    func layer() throws -> Configuration {
        var layer = Configuration()
        func put(_ option: String, _ path: String, _ value: JSONValue?) throws {
            guard let value else { return }
            do {
                _ = try layer.set(path, to: value)
            } catch {
                // The file's wording, under the option's name.
                throw ValidationError(error.message.replacingOccurrences(of: path, with: "--" + option))
            }
        }
        try put("stream-timeout", "player.stream_timeout", streamTimeout.map(JSONValue.number))
        try put("connect-timeout", "player.connect_timeout", connectTimeout.map(JSONValue.number))
        try put("stream-cache-size", "player.stream_cache_size", streamCacheSize.map(JSONValue.string))
        try put("stream-start", "player.stream_start", streamStart.map(JSONValue.number))
        return layer
    }

    func settings(over file: Configuration) throws -> StreamSettings {
        StreamSettings(configuration: file.merging(try layer()))
    }
}
