/// The times labeled along a picture's time axis: a round step (1 s, 2 s, 5 s, ... 1 h) as small
/// as leaves each label room, from 0 to the end.
public enum TimeTicks {
    static let steps: [Double] = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 18000, 36000]

    public static func make(seconds: Double, width: Int, labelWidth: Int) -> [(seconds: Double, text: String)] {
        guard seconds > 0, width > 0 else { return [] }
        let most = max(1, width / max(1, 2 * labelWidth))
        let step = steps.first { seconds / $0 <= Double(most) } ?? steps[steps.count - 1]
        return stride(from: 0, through: seconds, by: step).map { ($0, step < 1 ? decimalText($0) : TimeLabel.text(seconds: $0)) }
    }

    private static func decimalText(_ seconds: Double) -> String {
        var bytes: [UInt8] = []
        DecimalText.append(seconds, places: 1, to: &bytes)
        return String(decoding: bytes, as: UTF8.self) + " s"
    }
}
