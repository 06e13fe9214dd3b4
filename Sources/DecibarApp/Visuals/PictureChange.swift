import DecibarCore

/// One change of what a picture shows by name (a Milkdrop preset), as a render tells what is in
/// its video: times in seconds of the picture's clock, which in a render is frame / fps.
struct PictureChange {
    var name: String
    /// The first frame showing it (blended in, when it came by a transition).
    var start: Double
    /// How it came in; nil for the first.
    var transition: PresetTransitionStyle?
    /// The last frame of its transition.
    var blendEnd: Double?

    /// "at 0:04.000 (frame 240): NAME, by circle through 0:05.983 (frame 359)".
    func line(fps: Int) -> String {
        func moment(_ seconds: Double) -> String {
            let frame = Int((seconds * Double(fps)).rounded())
            let minutes = Int(seconds) / 60
            return String(format: "%d:%06.3f (frame %d)", minutes, seconds - Double(minutes * 60), frame)
        }
        var text = "at \(moment(start)): \(name)"
        if let transition, transition != .cut {
            text += ", by \(transition.rawValue)" + (blendEnd.map { " through " + moment($0) } ?? "")
        } else if transition == .cut {
            text += ", by a cut"
        }
        return text
    }
}
