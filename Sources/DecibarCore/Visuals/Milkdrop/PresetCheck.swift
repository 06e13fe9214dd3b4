/// Whether a file's bytes may be handed to libprojectM as a preset: it parses whatever it is
/// given, and some files (binary, huge, or cut off) make it hang or crash, so only text of a
/// preset's size goes. The app reads a file's first `limit + 1` bytes and asks here.
public enum PresetCheck {
    /// The most a preset may hold (the largest of projectm-data's is 35 KB).
    public static let limit = 1 << 20

    /// Nil when `bytes` may be loaded, or why not, to follow the file's name.
    public static func problem(in bytes: some Collection<UInt8>) -> String? {
        if bytes.isEmpty { return "is empty" }
        if bytes.count > limit { return "is over 1 MiB (not a preset)" }
        if bytes.contains(0) { return "is not text (not a preset)" }
        return nil
    }
}
