import CSDL2

/// Finds and reads the GLSL files in the `Shaders/` folder.
///
/// Looked for, in order: `$DECIBAR_SHADERS`; `share/decibar/Shaders` beside the installed binary's
/// `bin/`; `Shaders/` next to the binary; the source checkout this binary was built from.
public struct ShaderLibrary: Sendable {
    public let directory: String

    public init(directory: String? = nil) throws(RenderError) {
        var candidates: [String] = []
        if let directory { candidates.append(directory) }
        if let variable = getenvString("DECIBAR_SHADERS") { candidates.append(variable) }
        if let base = sdlFunctions.SDL_GetBasePath!() {
            let binary = String(cString: base)
            sdlFunctions.SDL_free!(base)
            candidates.append(binary + "../share/decibar/Shaders")
            candidates.append(binary + "Shaders")
        }
        candidates.append(Self.sourceShaderDirectory)
        guard let found = candidates.first(where: { Self.fileExists($0 + "/bars.vert") }) else {
            throw RenderError("cannot find the Shaders folder (looked in \(candidates.joined(separator: ", ")))")
        }
        self.directory = found
    }

    /// The text of `name` (e.g. `bars.frag`).
    public func source(named name: String) throws(RenderError) -> String {
        let path = directory + "/" + name
        var size = 0
        guard let data = sdlFunctions.SDL_LoadFile!(path, &size) else {
            throw RenderError("cannot read shader \(path): \(Window.lastError)")
        }
        defer { sdlFunctions.SDL_free!(data) }
        let bytes = UnsafeBufferPointer(start: data.assumingMemoryBound(to: UInt8.self), count: size)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static var sourceShaderDirectory: String {
        // #filePath is Sources/DecibarRender/ShaderLibrary.swift in the checkout.
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/") + "/Shaders"
    }

    static func fileExists(_ path: String) -> Bool {
        guard let file = sdlFunctions.SDL_RWFromFile!(path, "rb") else { return false }
        sdlFunctions.SDL_RWclose!(file)
        return true
    }
}

private func getenvString(_ name: String) -> String? {
    guard let value = sdlFunctions.SDL_getenv!(name) else { return nil }
    let text = String(cString: value)
    return text.isEmpty ? nil : text
}
