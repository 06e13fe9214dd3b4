import DecibarAudio
import DecibarCore
import DecibarRender

/// What the window says about the tap: a steady message while no audio can flow, and the
/// device's name for a moment after the tap (re)connects, fading out.
struct StatusOverlay {
    struct Message: Equatable {
        var text: String
        var opacity: Float
        var isProminent: Bool
    }

    /// How long a new device's name stays, then how long it takes to fade.
    static let deviceNameSeconds = 2.5
    static let fadeSeconds = 0.5

    private var status: TapStatus?
    private var changedAt = 0.0

    mutating func update(_ status: TapStatus, at now: Double) {
        guard status != self.status else { return }
        self.status = status
        changedAt = now
    }

    /// `text` cut (with "...") to fit `width` pixels in `renderer`'s size.
    static func fitting(_ text: String, width: Int, with renderer: TextRenderer) -> String {
        guard renderer.size(of: text).width > width else { return text }
        var cut = text
        while !cut.isEmpty && renderer.size(of: cut + "...").width > width { cut.removeLast(max(1, cut.count / 20)) }
        return cut + "..."
    }

    func message(at now: Double) -> Message? {
        guard let status else { return nil }
        switch status {
        case .capturing(let device):
            let age = now - changedAt
            guard age < Self.deviceNameSeconds + Self.fadeSeconds else { return nil }
            let fade = Float(max(0, age - Self.deviceNameSeconds) / Self.fadeSeconds)
            return Message(text: device.description, opacity: 1 - fade, isProminent: false)
        case .connecting, .waitingForServer, .waitingForDevice:
            return Message(text: status.summary, opacity: 1, isProminent: true)
        case .waitingForApp:
            // Not a fault: said quietly, and it stays until the app plays.
            return Message(text: status.summary, opacity: 1, isProminent: false)
        }
    }
}
