import Foundation

/// What tesseract reads on a picture (a frame or a screenshot): the words drawn on it, as a user
/// would read them.
enum TextReader {
    /// The text read on `picture`, lowercased, its words joined by single spaces; `language` is
    /// tesseract's model (eng, chi_sim, ara).
    static func text(in picture: String, language: String = "eng") throws -> String {
        let read = try TestRig.run("tesseract", [picture, "stdout", "--psm", "11", "-l", language])
        guard read.status == 0 else { throw RigError("tesseract could not read \(picture): \(read.error)") }
        return String(decoding: read.output, as: UTF8.self).lowercased()
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
