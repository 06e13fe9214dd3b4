extension String {
    /// The string with control characters written as escapes (`\n`, `\t`, `\u{1B}`), so that a
    /// message naming a path stays one line whatever the path holds.
    public var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.isControl:
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    /// C0 and C1 control characters and DEL.
    var isControl: Bool { value < 0x20 || (0x7F ... 0x9F).contains(value) }
}
