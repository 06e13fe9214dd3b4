/// The sound server's sinks and sources at one moment, for `decibar devices`.
public struct AudioDeviceList: Sendable, Equatable {
    public struct Sink: Sendable, Equatable {
        public var name: String
        public var description: String
        public var monitorSourceName: String
        public var sampleRate: Int
        public var channelCount: Int
    }

    public struct Source: Sendable, Equatable {
        public var name: String
        public var description: String
        /// The sink this source monitors, if it is a monitor.
        public var monitoredSinkName: String?
        public var sampleRate: Int
        public var channelCount: Int
    }

    /// A playback stream: an app playing, which `--app` can name by `appName` or `binary`.
    public struct Playback: Sendable, Equatable {
        public var index: Int
        public var appName: String?
        public var binary: String?
        public var processID: Int?
        public var sinkName: String
        /// Paused by the app (corked): it plays nothing, though the stream is open.
        public var isPaused: Bool
    }

    public var serverName: String
    public var defaultSinkName: String
    public var defaultSourceName: String
    public var sinks: [Sink]
    public var sources: [Source]
    public var playbacks: [Playback] = []

    /// The source a live tap follows: the default sink's monitor.
    public var defaultMonitorName: String? {
        sinks.first { $0.name == defaultSinkName }?.monitorSourceName
    }
}
