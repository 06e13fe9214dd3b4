/// Fixed-point decimal text written straight into a byte buffer: JSON lines go out dozens of
/// times a second with hundreds of numbers each, and building a String per number was most of
/// what `levels --mode spectrum` cost.
public enum DecimalText {
    /// Appends `value` rounded to `places` decimals (`-0.00` is written `0.00`; not finite: `0`).
    public static func append(_ value: Double, places: Int, to bytes: inout [UInt8]) {
        guard value.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        var scale: UInt64 = 1
        for _ in 0 ..< places { scale *= 10 }
        let scaled = (Swift.abs(value) * Double(scale)).rounded()
        guard scaled < 9e15 else {
            bytes.append(contentsOf: Array((value < 0 ? "-1e15" : "1e15").utf8))
            return
        }
        let whole = UInt64(scaled)
        if value < 0 && whole != 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(whole / scale, to: &bytes)
        guard places > 0 else { return }
        bytes.append(UInt8(ascii: "."))
        var fraction = whole % scale
        var divisor = scale / 10
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }

    /// Appends a whole number.
    public static func append(integer value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), to: &bytes)
    }

    private static func appendDigits(_ number: UInt64, to bytes: inout [UInt8]) {
        var divisor: UInt64 = 1
        while number / divisor >= 10 { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
