extension SpeakerPosition {
    /// The usual short name (FL, FR, FC, LFE, ...), as FFmpeg and WAVE channel masks spell them;
    /// nil for a channel with no place.
    public var shortName: String? {
        switch self {
        case .frontLeft: "FL"
        case .frontRight: "FR"
        case .frontCenter: "FC"
        case .lowFrequency: "LFE"
        case .backLeft: "BL"
        case .backRight: "BR"
        case .backCenter: "BC"
        case .frontLeftOfCenter: "FLC"
        case .frontRightOfCenter: "FRC"
        case .sideLeft: "SL"
        case .sideRight: "SR"
        case .topCenter: "TC"
        case .topFrontLeft: "TFL"
        case .topFrontCenter: "TFC"
        case .topFrontRight: "TFR"
        case .topBackLeft: "TBL"
        case .topBackCenter: "TBC"
        case .topBackRight: "TBR"
        case .auxiliary: nil
        }
    }

    /// A layout as FFmpeg's `ch_layout` option takes it: `FL+FR+FC+...`, or `Nc` (N channels in
    /// no particular places) when any has no name.
    public static func layoutName(_ positions: [SpeakerPosition]) -> String {
        let names = positions.compactMap(\.shortName)
        return names.count == positions.count && !names.isEmpty ? names.joined(separator: "+") : "\(positions.count)c"
    }
}
