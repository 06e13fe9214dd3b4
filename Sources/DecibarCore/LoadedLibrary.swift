/// A C library's table of functions, filled on first use by its C module's loader (see
/// CLoader.h), or why it could not be. Pure: the loader is handed in by the adapter.
// Unchecked: the table is written once, under the loader's lock, and only read after.
public struct LoadedLibrary<Table>: @unchecked Sendable {
    public let table: Table?
    public let failure: String?

    /// `load` is the module's `decibar_<name>_load`.
    public init(_ load: (UnsafeMutablePointer<CChar>, Int32) -> UnsafePointer<Table>?) {
        var message = [CChar](repeating: 0, count: 256)
        if let loaded = load(&message, Int32(message.count)) {
            table = loaded.pointee
            failure = nil
        } else {
            table = nil
            failure = String(cMessage: message)
        }
    }
}
