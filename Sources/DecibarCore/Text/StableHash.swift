/// FNV-1a over UTF-8: a name that stays the same from run to run (Swift's `hashValue` does not).
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt64 {
        fnv1a(text.utf8)
    }

    /// The same over any bytes (a picture's, to name it by its contents).
    public static func fnv1a(_ bytes: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }
}
