/// Playback times as people read them: `m:ss` under an hour, `h:mm:ss` from an hour on.
public enum TimeLabel {
    public static func text(seconds: Double) -> String {
        let whole = seconds.isFinite ? Swift.max(0, Int(seconds.rounded(.down))) : 0
        let hours = whole / 3600
        let minutes = (whole % 3600) / 60
        let secs = whole % 60
        let twoDigits = { (value: Int) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(secs))" : "\(minutes):\(twoDigits(secs))"
    }
}
