import CGL

/// What the OpenGL context in use runs on.
public enum GLRenderer {
    /// Whether it runs on the CPU (Mesa's llvmpipe or softpipe), where every pixel a shader
    /// touches costs.
    public static var isSoftware: Bool {
        guard let name = glFunctions.glGetString!(GLenum(GL_RENDERER)) else { return false }
        let renderer = String(cString: UnsafeRawPointer(name).assumingMemoryBound(to: CChar.self)).lowercased()
        return renderer.contains("llvmpipe") || renderer.contains("softpipe") || renderer.contains("software")
    }
}
