import Foundation

/// A folder of its own for one test, removed when the test is done with it.
final class TemporaryFolder {
    let path: String

    init() throws {
        let template = NSTemporaryDirectory() + "decibar-app-XXXXXX"
        var bytes = Array(template.utf8CString)
        guard let made = mkdtemp(&bytes) else { throw CocoaError(.fileWriteUnknown) }
        path = String(cString: made)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Writes `text` to a file in the folder; returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }
}
