/// Which client library a live tap speaks to the sound server with.
public enum AudioBackendChoice: String, CaseIterable, Sendable {
    /// PipeWire's own protocol when a PipeWire server with audio answers, else PulseAudio's.
    case auto
    /// libpulse: PulseAudio, or PipeWire through pipewire-pulse.
    case pulse
    /// libpipewire: PipeWire itself.
    case pipewire
}
