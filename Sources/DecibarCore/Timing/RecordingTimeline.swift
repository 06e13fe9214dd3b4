/// Where the frames and the audio of a recording go, at a steady frame rate.
///
/// Video: slot n of the recording (n/fps seconds after the first frame) is filled by the first
/// frame drawn whose audio reaches that moment, so it shows everything heard by then whenever it
/// was drawn; a stutter repeats a frame and a fast display drops some. Audio: buffers follow on
/// when contiguous, and a jump in the stream (a seek, a pause, the server away) is placed by the
/// time it was heard, with silence in between. The two line up through `audioOffset`.
public struct RecordingTimeline: Sendable {
    public let fps: Int
    /// When the first frame was drawn (monotonic seconds).
    public private(set) var start: Double?
    public private(set) var slotsFilled = 0
    /// When the first recorded sample was heard, as the earliest stamped buffer places it.
    public private(set) var audioStart: Double?
    /// Audio frames placed so far, silence included.
    public private(set) var audioFramesPlaced: Int64 = 0
    /// When the newest audio shown so far ends (its last sample heard).
    private var latestHeard = -Double.infinity
    /// The stream position that follows the last buffer: one that starts there is contiguous.
    private var nextStartFrame: Int64?

    /// A frame's audio counts as reaching the frame's time if heard this recently; otherwise (a
    /// pause, a server that sends nothing) the clock leads.
    public static let audioFreshness = 0.2

    public init(fps: Int) {
        precondition(fps > 0, "a frame rate must be positive")
        self.fps = fps
    }

    /// A frame drawn at `now`: how many slots it fills (0 when none is due yet).
    public mutating func slotsForFrame(drawnAt now: Double) -> Int {
        let start = self.start ?? now
        self.start = start
        let reaches = now - latestHeard < Self.audioFreshness ? latestHeard : now
        return fill(upTo: reaches, from: start)
    }

    /// Slots still to fill when the recording ends at `end` (with the last frame drawn).
    public mutating func slotsToFinish(at end: Double) -> Int {
        guard let start else { return 0 }
        return fill(upTo: end, from: start)
    }

    private mutating func fill(upTo time: Double, from start: Double) -> Int {
        let due = Int(saturating: ((time - start) * Double(fps)).rounded(.down)) + 1
        guard due > slotsFilled else { return 0 }
        defer { slotsFilled = due }
        return due - slotsFilled
    }

    /// A buffer of `frameCount` frames starting at stream frame `startFrame`, its last sample heard
    /// at `end`: the frames of silence to write before it.
    public mutating func silenceBefore(startFrame: Int64, frameCount: Int, sampleRate: Int, heardAt end: Double) -> Int64 {
        let heardAt = end - Double(frameCount) / Double(sampleRate)
        latestHeard = Swift.max(latestHeard, end)
        let begin = audioStart ?? heardAt
        audioStart = begin
        let expected = Int64(saturating: ((heardAt - begin) * Double(sampleRate)).rounded())
        let gap = startFrame == nextStartFrame ? 0 : Swift.max(0, expected - audioFramesPlaced)
        nextStartFrame = startFrame + Int64(frameCount)
        // A buffer heard earlier than its place implies says the first was stamped late (it
        // arrived after a wait): the audio starts by the earliest of them.
        audioStart = Swift.min(begin, heardAt - Double(audioFramesPlaced + gap) / Double(sampleRate))
        audioFramesPlaced += gap + Int64(frameCount)
        return gap
    }

    /// Seconds from the first frame to the first sample heard (negative: the audio started first).
    public var audioOffset: Double? {
        guard let start, let audioStart else { return nil }
        return audioStart - start
    }
}
