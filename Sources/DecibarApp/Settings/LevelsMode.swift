/// What `decibar levels` prints.
public enum LevelsMode: String, CaseIterable, Sendable {
    case levels
    case spectrum
    case loudness
    case beats
    case stereo
}
