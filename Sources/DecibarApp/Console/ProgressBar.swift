import DecibarCore
import Foundation

/// A one-line progress bar on a terminal's stderr: how much is done, how fast, time left.
/// Redrawn at most ten times a second; silent when stderr is not a terminal.
struct ProgressBar {
    let total: Int
    let start = MonotonicClock.now()
    private var lastDrawn = -Double.infinity
    private let isTerminal = isatty(STDERR_FILENO) != 0
    /// Shown counts are `done / scale` of this unit ("frames", or "s" of audio counted in samples).
    private let unit: String
    private let scale: Double
    /// Said before the bar (a pass's name).
    private let label: String

    init(total: Int, unit: String = "frames", scale: Double = 1, label: String = "") {
        self.total = max(1, total)
        self.unit = unit
        self.scale = scale
        self.label = label.isEmpty ? "" : label + " "
    }

    mutating func update(done: Int) {
        guard isTerminal else { return }
        let now = MonotonicClock.now()
        guard now - lastDrawn >= 0.1 || done == total else { return }
        lastDrawn = now
        // A header's length can be short of the truth: the bar stops at full.
        let fraction = min(1, Double(done) / Double(total))
        let rate = Double(done) / max(1e-6, now - start)
        let left = rate > 0 ? Double(max(0, total - done)) / rate : 0
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = unit == "frames"
            ? String(format: "\r[%@] %3d%%  %d/%d frames  %.1f fps  ETA %@ ", bar, Int(fraction * 100), done, total, rate,
                     TimeLabel.text(seconds: left.rounded(.up)))
            : String(format: "\r[%@] %3d%%  %.0f/%.0f %@  %.1fx  ETA %@ ", bar, Int(fraction * 100), Double(done) / scale,
                     Double(total) / scale, unit, rate / scale, TimeLabel.text(seconds: left.rounded(.up)))
        Self.show(line.replacingOccurrences(of: "\r", with: "\r" + label))
    }

    func finish() {
        if isTerminal { Self.show("\n") }
    }

    /// Straight to the terminal; a terminal that has gone away only loses the bar.
    private static func show(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }
}
