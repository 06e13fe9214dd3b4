import CSystemd
import DecibarCore
import Foundation

/// Asks RealtimeKit (`rtkit-daemon`, on the system bus) to make a thread of this process real-time,
/// as PulseAudio and PipeWire do for their own threads: a desktop user may not raise a thread's
/// priority alone (RLIMIT_RTPRIO is 0), but rtkit may do it for them, within its limits. Where
/// there is no system bus or no rtkit, the desktop portal's `org.freedesktop.portal.Realtime` on
/// the session bus (which forwards to rtkit from a sandbox) is asked instead.
public enum RealtimeKit {
    /// rtkit's bounds: the highest priority it grants, and how much CPU time (µs) a real-time
    /// thread may use without sleeping before rtkit's condition (RLIMIT_RTTIME) ends it.
    public struct Limits: Sendable, Equatable {
        public var maximumPriority: Int
        public var maximumRealtimeMicroseconds: Int64
    }

    private struct Service {
        let destination: String
        let path: String
        let interface: String
        let isSystem: Bool
    }

    private static let services = [
        Service(destination: "org.freedesktop.RealtimeKit1", path: "/org/freedesktop/RealtimeKit1",
                interface: "org.freedesktop.RealtimeKit1", isSystem: true),
        Service(destination: "org.freedesktop.portal.Desktop", path: "/org/freedesktop/portal/desktop",
                interface: "org.freedesktop.portal.Realtime", isSystem: false),
    ]

    /// Asks for thread `thread` (a kernel thread id) of process `process` at `priority`, first of
    /// rtkit, then of the portal. `prepare` is called with the service's limits before the request
    /// (to set RLIMIT_RTTIME, which rtkit insists on) and returns the priority to ask for, or nil
    /// to give up. Returns the priority granted, or the reason each service gave, in one line.
    /// Blocks for a bus round trip or two (at most a second each): never call it where waiting matters.
    public static func makeRealtime(process: Int, thread: Int, prepare: (Limits) -> Int?) -> Result<Int, RealtimeKitError> {
        withoutActuallyEscaping(prepare) { askEach(process: process, thread: thread, request: .realtime($0)) }
    }

    /// Asks for a lower nice value for thread `thread` of process `process` (`niceness`, or rtkit's
    /// floor if that is higher), first of rtkit, then of the portal. Returns the nice value granted,
    /// or the reason each service gave, in one line. Blocks as `makeRealtime` does.
    public static func makeHighPriority(process: Int, thread: Int, niceness: Int) -> Result<Int, RealtimeKitError> {
        askEach(process: process, thread: thread, request: .highPriority(niceness))
    }

    private enum Request {
        case realtime((Limits) -> Int?)
        case highPriority(Int)
    }

    private static func askEach(process: Int, thread: Int, request: Request) -> Result<Int, RealtimeKitError> {
        guard systemdLibrary.failure == nil else { return .failure(RealtimeKitError(systemdLibrary.failure ?? "no libsystemd")) }
        var reasons: [String] = []
        for service in services {
            switch ask(service, process: process, thread: thread, request: request) {
            case .success(let granted): return .success(granted)
            case .failure(let reason): reasons.append(reason.description)
            }
        }
        return .failure(RealtimeKitError(reasons.joined(separator: "; ")))
    }

    private static func ask(_ service: Service, process: Int, thread: Int, request: Request) -> Result<Int, RealtimeKitError> {
        var bus: OpaquePointer?
        let opened = service.isSystem ? systemdFunctions.sd_bus_open_system!(&bus) : systemdFunctions.sd_bus_open_user!(&bus)
        guard opened >= 0, let bus else {
            return .failure(RealtimeKitError("no \(service.isSystem ? "system" : "session") bus (\(errorText(opened)))"))
        }
        defer { _ = systemdFunctions.sd_bus_flush_close_unref!(bus) }
        let method: String
        let granted: Int
        switch request {
        case .realtime(let prepare):
            guard let maximumPriority = property(bus, service, "MaxRealtimePriority", type: "i", as: Int32.self) else {
                return .failure(RealtimeKitError("\(service.destination) does not answer"))
            }
            // The portal has no such property: rtkit's default bound then.
            let realtime = property(bus, service, "RTTimeUSecMax", type: "x", as: Int64.self) ?? 200_000
            guard let priority = prepare(Limits(maximumPriority: Int(maximumPriority), maximumRealtimeMicroseconds: realtime)) else {
                return .failure(RealtimeKitError("\(service.destination) grants no priority (at most \(maximumPriority))"))
            }
            (method, granted) = ("MakeThreadRealtimeWithPID", priority)
        case .highPriority(let niceness):
            guard let floor = property(bus, service, "MinNiceLevel", type: "i", as: Int32.self) else {
                return .failure(RealtimeKitError("\(service.destination) does not answer"))
            }
            (method, granted) = ("MakeThreadHighPriorityWithPID", max(niceness, Int(floor)))
        }
        var message: OpaquePointer?
        guard systemdFunctions.sd_bus_message_new_method_call!(bus, &message, service.destination, service.path, service.interface,
                                                               method) >= 0, let message else {
            return .failure(RealtimeKitError("cannot make a call to \(service.destination)"))
        }
        defer { _ = systemdFunctions.sd_bus_message_unref!(message) }
        var processValue = UInt64(process), threadValue = UInt64(thread)
        _ = systemdFunctions.sd_bus_message_append_basic!(message, CChar(UInt8(ascii: "t")), &processValue)
        _ = systemdFunctions.sd_bus_message_append_basic!(message, CChar(UInt8(ascii: "t")), &threadValue)
        if case .realtime = request {
            var priorityValue = UInt32(granted)
            _ = systemdFunctions.sd_bus_message_append_basic!(message, CChar(UInt8(ascii: "u")), &priorityValue)
        } else {
            var nicenessValue = Int32(granted)
            _ = systemdFunctions.sd_bus_message_append_basic!(message, CChar(UInt8(ascii: "i")), &nicenessValue)
        }
        var error = sd_bus_error()
        var reply: OpaquePointer?
        let called = systemdFunctions.sd_bus_call!(bus, message, 1_000_000, &error, &reply)
        defer {
            if let reply { _ = systemdFunctions.sd_bus_message_unref!(reply) }
            systemdFunctions.sd_bus_error_free!(&error)
        }
        guard called >= 0 else {
            let said = error.message.map { String(cString: $0) } ?? errorText(called)
            return .failure(RealtimeKitError("\(service.destination) refused: \(said)"))
        }
        return .success(granted)
    }

    private static func property<Value: FixedWidthInteger>(_ bus: OpaquePointer, _ service: Service, _ name: String, type: Character,
                                                            as: Value.Type) -> Value? {
        var error = sd_bus_error()
        defer { systemdFunctions.sd_bus_error_free!(&error) }
        var value = Value.zero
        let read = systemdFunctions.sd_bus_get_property_trivial!(bus, service.destination, service.path, service.interface, name,
                                                                 &error, CChar(UInt8(ascii: Unicode.Scalar(String(type))!)), &value)
        return read >= 0 ? value : nil
    }

    private static func errorText(_ code: Int32) -> String { String(cString: strerror(-code)) }
}

/// Why RealtimeKit gave no priority, in one line.
public struct RealtimeKitError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
