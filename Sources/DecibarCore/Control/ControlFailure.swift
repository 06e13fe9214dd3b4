/// Why a command was refused: an mpv-style error string and a sentence for people.
public struct ControlFailure: Error, Sendable, Equatable {
    public enum Code: String, Sendable {
        /// The line is not a request, or an argument has the wrong type or value.
        case invalidParameter = "invalid parameter"
        case unknownCommand = "unknown command"
        /// The line went past 64 KiB; it was discarded.
        case lineTooLong = "line too long"
        /// A config key that does not exist.
        case optionNotFound = "option not found"
        /// The command was understood but could not be carried out (no file to seek in, no display...).
        case commandFailed = "error running command"
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
