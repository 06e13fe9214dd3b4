/// Where a channel of audio is meant to be heard. Decoders name their channels with these, and a
/// player hands them to the sound server so that each channel reaches the right speaker.
public enum SpeakerPosition: Hashable, Sendable {
    case frontLeft, frontRight, frontCenter, lowFrequency
    case backLeft, backRight, backCenter
    case frontLeftOfCenter, frontRightOfCenter
    case sideLeft, sideRight
    case topCenter, topFrontLeft, topFrontCenter, topFrontRight, topBackLeft, topBackCenter, topBackRight
    /// A channel with no place of its own (numbered from 0).
    case auxiliary(Int)
}
