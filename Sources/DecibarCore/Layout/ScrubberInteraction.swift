/// Clicking and dragging on the scrubber, as a small state machine.
///
/// A press on the scrubber starts an interaction: the playhead follows the pointer at once and the
/// audio pauses; the release seeks exactly once, to where the pointer is (clamped to the track,
/// also when it left the window), and playback resumes if it was playing. A click is a press and
/// release without movement: the same single seek. No second "click" seek follows a drag.
public struct ScrubberInteraction: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case none
        /// Pause the audio while the user drags.
        case pause
        /// Seek to this time; resume playback if `resume`.
        case seek(to: Double, resume: Bool)
    }

    public private(set) var isActive = false
    /// While active, where the playhead is drawn.
    public private(set) var previewTime: Double = 0
    private var wasPlaying = false

    public init() {}

    /// A press at `x`; only presses inside the scrubber start an interaction.
    public mutating func press(x: Double, isInsideScrubber: Bool, geometry: ScrubberGeometry, isPlaying: Bool) -> Action {
        guard isInsideScrubber, !isActive else { return .none }
        isActive = true
        wasPlaying = isPlaying
        previewTime = geometry.time(forX: x)
        return isPlaying ? .pause : .none
    }

    /// The pointer moved (anywhere, even outside the window while the mouse is captured).
    public mutating func move(x: Double, geometry: ScrubberGeometry) {
        guard isActive else { return }
        previewTime = geometry.time(forX: x)
    }

    /// The button was released: the one seek of this interaction.
    public mutating func release(x: Double, geometry: ScrubberGeometry) -> Action {
        guard isActive else { return .none }
        isActive = false
        previewTime = geometry.time(forX: x)
        return .seek(to: previewTime, resume: wasPlaying)
    }
}
