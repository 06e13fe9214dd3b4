/// Clicking and dragging on the scrubber, as a small state machine.
///
/// A press on the scrubber starts an interaction: the playhead follows the pointer at once (the
/// screen either pauses the audio, as a tape deck's seed did, or plays what is under the pointer);
/// the release seeks exactly once, to where the pointer is (clamped to the track, also when it left
/// the window), and playback resumes if it was playing. A click is a press and release without
/// movement: the same single seek. No second "click" seek follows a drag.
///
/// With shift held at the press, the drag marks an A-B loop instead: the stretch between the press
/// and the release, which plays on as it did meanwhile.
public struct ScrubberInteraction: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        case none
        /// A drag to seek starts; the audio was playing or not.
        case startDrag(wasPlaying: Bool)
        /// Seek to this time; resume playback if `resume`.
        case seek(to: Double, resume: Bool)
        /// Loop from one time to the other (in order).
        case loop(from: Double, to: Double)
    }

    public private(set) var isActive = false
    /// While active, the time under the pointer.
    public private(set) var previewTime: Double = 0
    /// Where a loop's drag started; nil while dragging to seek.
    public private(set) var loopAnchor: Double?
    private var wasPlaying = false

    public init() {}

    /// A drag that seeks: the playhead is drawn at `previewTime`.
    public var isSeeking: Bool { isActive && loopAnchor == nil }

    /// The stretch a loop's drag covers so far.
    public var loopSelection: (start: Double, end: Double)? {
        guard isActive, let loopAnchor else { return nil }
        return (min(loopAnchor, previewTime), max(loopAnchor, previewTime))
    }

    /// A press at `x`; only presses inside the scrubber start an interaction. `selectsLoop`: shift was held.
    public mutating func press(x: Double, isInsideScrubber: Bool, geometry: ScrubberGeometry, isPlaying: Bool,
                               selectsLoop: Bool = false) -> Action {
        guard isInsideScrubber, !isActive else { return .none }
        isActive = true
        wasPlaying = isPlaying
        previewTime = geometry.time(forX: x)
        loopAnchor = selectsLoop ? previewTime : nil
        return selectsLoop ? .none : .startDrag(wasPlaying: isPlaying)
    }

    /// The pointer moved (anywhere, even outside the window while the mouse is captured).
    public mutating func move(x: Double, geometry: ScrubberGeometry) {
        guard isActive else { return }
        previewTime = geometry.time(forX: x)
    }

    /// The button was released: the one seek (or loop) of this interaction.
    public mutating func release(x: Double, geometry: ScrubberGeometry) -> Action {
        guard isActive else { return .none }
        previewTime = geometry.time(forX: x)
        defer {
            isActive = false
            loopAnchor = nil
        }
        if let selection = loopSelection { return .loop(from: selection.start, to: selection.end) }
        return .seek(to: previewTime, resume: wasPlaying)
    }
}
