import DecibarCore

extension DisplaySettings {
    /// What of the window's look the outputs draw with: every display row that a render takes too
    /// (the picture, not the window), and the rate. A change restarts them.
    var outputLook: [String: JSONValue] {
        var look: [String: JSONValue] = [:]
        for key in ConfigSchema.keys where key.section == ConfigSection.display.rawValue
            && (key.scope.commands.contains(.render) || key == ConfigSchema.display.fps.key) {
            look[key.path] = configuration[key]
        }
        return look
    }
}
