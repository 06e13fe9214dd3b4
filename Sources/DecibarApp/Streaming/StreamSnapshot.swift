import DecibarCore

/// A download as a screen or `ctl status` shows it.
struct StreamSnapshot: Sendable, Equatable {
    var total: Int64?
    var held: ByteRanges
    var isEndless: Bool
    var isComplete: Bool
    var failure: String?
    /// The radio's current title (ICY `StreamTitle`).
    var title: String?
    /// The radio's name (`icy-name`).
    var station: String?
    /// HTTP requests made so far (the first, then one per jump and per gap filled).
    var requestCount: Int

    /// The downloaded parts as fractions of the file, for the scrubber's shading.
    var downloadedFractions: [ClosedRange<Double>] {
        guard let total, !isEndless else { return [] }
        return held.fractions(of: total)
    }
}
