/// Fixed-point decimal text written straight into a byte buffer: JSON lines go out dozens of
/// times a second with hundreds of numbers each, and building a String per number was most of
/// what `levels --mode spectrum` cost.
public enum DecimalText {
    /// Appends `value` rounded to `places` decimals (`-0.00` is written `0.00`; not finite: `0`).
    public static func append(_ value: Double, places: Int, to bytes: inout [UInt8]) {
        precondition((0 ... 15).contains(places), "at most 15 decimal places")
        guard value.isFinite else { bytes.append(UInt8(ascii: "0")); return }
        let scaled = (Swift.abs(value) * powersOfTen[places]).rounded()
        guard scaled < 9e15 else {
            bytes.append(contentsOf: value < 0 ? negativeOverflow : overflow)
            return
        }
        let whole = UInt64(scaled)
        appendDigits(whole, fractionDigits: places, negative: value < 0 && whole != 0, to: &bytes)
    }

    /// Appends a whole number.
    public static func append(integer value: Int, to bytes: inout [UInt8]) {
        appendDigits(UInt64(value.magnitude), fractionDigits: 0, negative: value < 0, to: &bytes)
    }

    private static let powersOfTen: [Double] = (0 ... 15).map { places in
        (0 ..< places).reduce(1.0) { power, _ in power * 10 }
    }
    private static let overflow = Array("1e15".utf8)
    private static let negativeOverflow = Array("-1e15".utf8)

    /// Writes `number` with a decimal point before its last `fractionDigits` digits (padding with
    /// zeros, so 3 with two places is `0.03`). Digits are made right to left in a small inline
    /// buffer and appended at once: one capacity check per number instead of one per character.
    private static func appendDigits(_ number: UInt64, fractionDigits: Int, negative: Bool, to bytes: inout [UInt8]) {
        // 20 digits of a UInt64, a point and a sign fit in 22; 15 places are at most 17 digits.
        var text = InlineArray<24, UInt8>(repeating: 0)
        var start = text.count
        var rest = number
        var digits = 0
        repeat {
            if digits == fractionDigits && fractionDigits > 0 {
                start -= 1
                text[start] = UInt8(ascii: ".")
            }
            start -= 1
            text[start] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
            digits += 1
        } while rest > 0 || digits <= fractionDigits
        if negative {
            start -= 1
            text[start] = UInt8(ascii: "-")
        }
        text.span.withUnsafeBufferPointer { all in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[start...]))
        }
    }
}
