import CPulse
import DecibarCore

/// PulseAudio channel maps from speaker positions. A stream needs one beyond six channels, where
/// libpulse has no default (so 7.1 could not be played or tapped without it).
enum PulseChannelMap {
    /// The map for `positions` (at most `PA_CHANNELS_MAX`), or nil if PulseAudio would not accept it.
    static func make(_ positions: [SpeakerPosition]) -> pa_channel_map? {
        make(rawPositions: positions.map {
            positions.count == 1 && $0 == .frontCenter ? PA_CHANNEL_POSITION_MONO.rawValue : pulsePosition($0).rawValue
        })
    }

    /// A device's own map as raw positions, to rebuild it when opening a stream on the device.
    static func positions(of map: pa_channel_map) -> [Int32] {
        var map = map
        return withUnsafeBytes(of: &map.map) { raw in
            Array(raw.bindMemory(to: pa_channel_position_t.self).prefix(Int(map.channels)).map { $0.rawValue })
        }
    }

    /// A map from raw positions (see `positions(of:)`).
    static func make(rawPositions: [Int32]) -> pa_channel_map? {
        guard !rawPositions.isEmpty, rawPositions.count <= Int(PA_CHANNELS_MAX) else { return nil }
        var map = pa_channel_map()
        pulseFunctions.pa_channel_map_init!(&map)
        map.channels = UInt8(rawPositions.count)
        withUnsafeMutableBytes(of: &map.map) { raw in
            let slots = raw.bindMemory(to: pa_channel_position_t.self)
            for (index, position) in rawPositions.enumerated() { slots[index] = pa_channel_position_t(rawValue: position) }
        }
        return pulseFunctions.pa_channel_map_valid!(&map) != 0 ? map : nil
    }

    private static func pulsePosition(_ position: SpeakerPosition) -> pa_channel_position_t {
        switch position {
        case .frontLeft: PA_CHANNEL_POSITION_FRONT_LEFT
        case .frontRight: PA_CHANNEL_POSITION_FRONT_RIGHT
        case .frontCenter: PA_CHANNEL_POSITION_FRONT_CENTER
        case .lowFrequency: PA_CHANNEL_POSITION_LFE
        case .backLeft: PA_CHANNEL_POSITION_REAR_LEFT
        case .backRight: PA_CHANNEL_POSITION_REAR_RIGHT
        case .backCenter: PA_CHANNEL_POSITION_REAR_CENTER
        case .frontLeftOfCenter: PA_CHANNEL_POSITION_FRONT_LEFT_OF_CENTER
        case .frontRightOfCenter: PA_CHANNEL_POSITION_FRONT_RIGHT_OF_CENTER
        case .sideLeft: PA_CHANNEL_POSITION_SIDE_LEFT
        case .sideRight: PA_CHANNEL_POSITION_SIDE_RIGHT
        case .topCenter: PA_CHANNEL_POSITION_TOP_CENTER
        case .topFrontLeft: PA_CHANNEL_POSITION_TOP_FRONT_LEFT
        case .topFrontCenter: PA_CHANNEL_POSITION_TOP_FRONT_CENTER
        case .topFrontRight: PA_CHANNEL_POSITION_TOP_FRONT_RIGHT
        case .topBackLeft: PA_CHANNEL_POSITION_TOP_REAR_LEFT
        case .topBackCenter: PA_CHANNEL_POSITION_TOP_REAR_CENTER
        case .topBackRight: PA_CHANNEL_POSITION_TOP_REAR_RIGHT
        case .auxiliary(let number): pa_channel_position_t(rawValue: PA_CHANNEL_POSITION_AUX0.rawValue + Int32(max(0, min(31, number))))
        }
    }
}
