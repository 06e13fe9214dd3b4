import DecibarAudio
import DecibarCore
import Foundation

/// `decibar devices`: the sound server's sinks and sources, as a table or JSON.
public enum DeviceListing {
    /// Lists them on standard output; one line on failure (no server).
    public static func run(json: Bool, backend: AudioBackendChoice = .auto) throws {
        let list: AudioDeviceList
        do {
            list = try PulseDirectory.list()
        } catch {
            throw CommandFailure(message: error.description)
        }
        let backend = LiveTaps.resolve(backend)
        // Through the checked writer: a full disk or /dev/full is an error, not a silent success.
        writeBytes(Array((json ? Self.json(list, backend: backend) : Self.table(list, backend: backend)).utf8))
    }

    static func table(_ list: AudioDeviceList, backend: AudioBackendChoice) -> String {
        var text = "Server: \(list.serverName); decibar listens through \(LiveTaps.describe(backend)) (what audio.backend auto takes here)\n\n"
        text += "Sinks (outputs)\n"
        for sink in list.sinks {
            let isDefault = sink.name == list.defaultSinkName
            text += row(marker: isDefault ? "*" : " ", name: sink.name, description: sink.description,
                        rate: sink.sampleRate, channels: sink.channelCount,
                        note: isDefault ? "default output" : "")
        }
        if list.sinks.isEmpty { text += "  (none)\n" }
        text += "\nSources (inputs and monitors)\n"
        for source in list.sources {
            let isTapped = source.name == list.defaultMonitorName
            let note = isTapped ? "monitor of the default output: what decibar listens to"
                : source.name == list.defaultSourceName ? "default input" : ""
            text += row(marker: isTapped ? "*" : " ", name: source.name, description: source.description,
                        rate: source.sampleRate, channels: source.channelCount, note: note)
        }
        if list.sources.isEmpty { text += "  (none)\n" }
        text += "\nApps playing (--app takes the name or the binary)\n"
        for playback in list.playbacks {
            let name = playback.appName ?? "?"
            let padded = name.padding(toLength: max(name.count, 20), withPad: " ", startingAt: 0)
            let binary = (playback.binary ?? "?").padding(toLength: max((playback.binary ?? "?").count, 16), withPad: " ", startingAt: 0)
            let process = playback.processID.map { "pid \($0)" } ?? "pid ?"
            text += "  \(padded)  \(binary)  \(process.padding(toLength: max(process.count, 10), withPad: " ", startingAt: 0))"
                + "  on \(playback.sinkName)  \(playback.isPaused ? "paused" : "playing")\n"
        }
        if list.playbacks.isEmpty { text += "  (none)\n" }
        return text
    }

    private static func row(marker: String, name: String, description: String, rate: Int, channels: Int,
                            note: String) -> String {
        let padded = name.padding(toLength: max(name.count, 28), withPad: " ", startingAt: 0)
        let format = "\(rate) Hz \(channels) ch"
        return "\(marker) \(padded)  \(description) [\(format)]" + (note.isEmpty ? "" : "  (\(note))") + "\n"
    }

    private struct Listing: Encodable {
        struct Sink: Encodable {
            var name, description, monitor: String
            var rate, channels: Int
            var isDefault: Bool
            enum CodingKeys: String, CodingKey {
                case name, description, monitor, rate, channels, isDefault = "default"
            }
        }

        struct Source: Encodable {
            var name, description: String
            var monitorOf: String?
            var rate, channels: Int
            var isDefault, isDefaultMonitor: Bool
            enum CodingKeys: String, CodingKey {
                case name, description, rate, channels, monitorOf = "monitor_of", isDefault = "default"
                case isDefaultMonitor = "default_monitor"
            }
        }

        struct App: Encodable {
            var stream: Int
            var name, binary: String?
            var pid: Int?
            var sink, state: String
        }

        var server, backend, defaultSink, defaultSource: String
        var defaultMonitor: String?
        var sinks: [Sink]
        var sources: [Source]
        var apps: [App]
        enum CodingKeys: String, CodingKey {
            case server, backend, sinks, sources, apps, defaultSink = "default_sink", defaultSource = "default_source"
            case defaultMonitor = "default_monitor"
        }
    }

    static func json(_ list: AudioDeviceList, backend: AudioBackendChoice) -> String {
        let listing = Listing(
            server: list.serverName, backend: backend.rawValue, defaultSink: list.defaultSinkName, defaultSource: list.defaultSourceName,
            defaultMonitor: list.defaultMonitorName,
            sinks: list.sinks.map {
                .init(name: $0.name, description: $0.description, monitor: $0.monitorSourceName,
                      rate: $0.sampleRate, channels: $0.channelCount, isDefault: $0.name == list.defaultSinkName)
            },
            sources: list.sources.map {
                .init(name: $0.name, description: $0.description, monitorOf: $0.monitoredSinkName,
                      rate: $0.sampleRate, channels: $0.channelCount,
                      isDefault: $0.name == list.defaultSourceName,
                      isDefaultMonitor: $0.name == list.defaultMonitorName)
            },
            apps: list.playbacks.map {
                .init(stream: $0.index, name: $0.appName, binary: $0.binary, pid: $0.processID, sink: $0.sinkName,
                      state: $0.isPaused ? "paused" : "playing")
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(listing)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
