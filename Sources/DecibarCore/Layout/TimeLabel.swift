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

    /// The same text as ASCII bytes appended to `bytes` (reused from frame to frame: no new string).
    public static func append(seconds: Double, to bytes: inout [UInt8]) {
        let whole = seconds.isFinite ? Int(saturating: Swift.max(0, seconds.rounded(.down))) : 0
        let hours = whole / 3600, minutes = (whole % 3600) / 60, secs = whole % 60
        func twoDigits(_ value: Int) {
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        if hours > 0 {
            DecimalText.append(integer: hours, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            twoDigits(minutes)
        } else {
            DecimalText.append(integer: minutes, to: &bytes)
        }
        bytes.append(UInt8(ascii: ":"))
        twoDigits(secs)
    }
}
