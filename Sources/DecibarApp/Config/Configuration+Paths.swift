import DecibarCore
import Foundation

extension Configuration {
    /// The first of `keys` this layer sets to a folder or file that is not there, said as its
    /// option and the path; nil when all are. For a command line, where a typo is best said at
    /// once rather than when the shader is first looked for.
    public func missingPath(among keys: [ConfigKey]) -> String? {
        for key in keys where (key.isFolder || key.isFile) && isSet(key) {
            let path = self[key]?.string ?? ""
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue == key.isFolder else {
                return "\(key.optionName): no such \(key.isFolder ? "folder" : "file"): \(path.escapingControlCharacters)"
            }
        }
        return nil
    }
}
