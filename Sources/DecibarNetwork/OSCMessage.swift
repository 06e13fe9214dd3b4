import CLiblo
import DecibarCore

let libloLibrary = LoadedLibrary<DecibarLiblo> { decibar_liblo_load($0, $1) }
/// Its functions; reached only once `libloLibrary` loaded.
var libloFunctions: DecibarLiblo { libloLibrary.table! }

/// One OSC message of `count` floats to one address, encoded by liblo (Debian's liblo7): made
/// once, then each send sets the floats in place and serializes into storage kept from the start,
/// so sending allocates nothing. This is the only Swift code that imports liblo.
///
/// One instance belongs to one thread at a time.
public final class OSCMessage {
    public let address: String
    public let count: Int
    private let message: UnsafeMutableRawPointer
    private let arguments: UnsafeMutablePointer<UnsafeMutablePointer<lo_arg>?>
    /// The serialized message, rewritten by `encode`.
    public private(set) var bytes: [UInt8]

    /// Why liblo cannot be used here, or nil when it can.
    public static var libraryFailure: String? { libloLibrary.failure }

    /// nil when liblo is missing (`libraryFailure` says why) or cannot make the message.
    public init?(address: String, count: Int) {
        guard libloLibrary.table != nil, count > 0, let message = libloFunctions.lo_message_new() else { return nil }
        for _ in 0 ..< count where libloFunctions.lo_message_add_float(message, 0) != 0 {
            libloFunctions.lo_message_free(message)
            return nil
        }
        // The arguments point into the message's own data: valid until another is added (never).
        guard let arguments = libloFunctions.lo_message_get_argv(message) else {
            libloFunctions.lo_message_free(message)
            return nil
        }
        self.address = address
        self.count = count
        self.message = message
        self.arguments = arguments
        bytes = Array(repeating: 0, count: libloFunctions.lo_message_length(message, address))
    }

    deinit { libloFunctions.lo_message_free(message) }

    /// Sets the floats (`count` of them; missing ones are 0) and serializes the message into `bytes`.
    public func encode(_ values: UnsafeBufferPointer<Float>) {
        for index in 0 ..< count { arguments[index]?.pointee.f = index < values.count ? values[index] : 0 }
        var size = bytes.count
        bytes.withUnsafeMutableBytes { raw in _ = libloFunctions.lo_message_serialise(message, address, raw.baseAddress, &size) }
    }
}
