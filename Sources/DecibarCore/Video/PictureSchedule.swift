/// Which of the decoded pictures waiting in order to show at a moment: the latest whose time has
/// been heard. A picture is never shown before its time; those passed over are late (dropped).
public enum PictureSchedule {
    /// The index in `times` (ascending) of the picture to show at `heard`, or nil if none is due.
    /// Every picture before that index is dropped.
    public static func due(times: some Collection<Double>, heard: Double) -> Int? {
        var found: Int?
        for (index, time) in times.enumerated() {
            // A microsecond of slack for times that went through two time bases.
            guard time <= heard + 1e-6 else { break }
            found = index
        }
        return found
    }
}
