import CGL
import Foundation

/// A linked vertex + fragment program; compile errors name the file and carry the driver's message.
final class ShaderProgram {
    let handle: GLuint

    convenience init(library: ShaderLibrary, vertex: String, fragment: String) throws(RenderError) {
        try self.init(vertexSource: try library.source(named: vertex), vertexName: library.directory + "/" + vertex,
                      fragmentSource: try library.source(named: fragment), fragmentName: library.directory + "/" + fragment)
    }

    /// Compiles and links from source text; the names are what errors call the files.
    init(vertexSource: String, vertexName: String, fragmentSource: String, fragmentName: String) throws(RenderError) {
        let vertex = (vertexName as NSString).lastPathComponent
        let fragment = (fragmentName as NSString).lastPathComponent
        let vertexShader = try Self.compile(vertexSource, kind: GLenum(GL_VERTEX_SHADER), name: vertexName)
        defer { glFunctions.glDeleteShader!(vertexShader) }
        let fragmentShader = try Self.compile(fragmentSource, kind: GLenum(GL_FRAGMENT_SHADER), name: fragmentName)
        defer { glFunctions.glDeleteShader!(fragmentShader) }
        let program = glFunctions.glCreateProgram!()
        glFunctions.glAttachShader!(program, vertexShader)
        glFunctions.glAttachShader!(program, fragmentShader)
        glFunctions.glLinkProgram!(program)
        var linked: GLint = 0
        glFunctions.glGetProgramiv!(program, GLenum(GL_LINK_STATUS), &linked)
        guard linked != 0 else {
            let log = Self.infoLog(of: program, isProgram: true)
            glFunctions.glDeleteProgram!(program)
            throw RenderError("cannot link \(vertex) + \(fragment): \(log)")
        }
        handle = program
    }

    deinit {
        glFunctions.glDeleteProgram!(handle)
    }

    func uniformLocation(_ name: String) -> GLint {
        glFunctions.glGetUniformLocation!(handle, name)
    }

    private static func compile(_ source: String, kind: GLenum, name: String) throws(RenderError) -> GLuint {
        let shader = glFunctions.glCreateShader!(kind)
        source.withCString { text in
            var pointer: UnsafePointer<GLchar>? = text
            glFunctions.glShaderSource!(shader, 1, &pointer, nil)
        }
        glFunctions.glCompileShader!(shader)
        var compiled: GLint = 0
        glFunctions.glGetShaderiv!(shader, GLenum(GL_COMPILE_STATUS), &compiled)
        guard compiled != 0 else {
            let log = infoLog(of: shader, isProgram: false)
            glFunctions.glDeleteShader!(shader)
            throw RenderError("shader \(name) failed to compile: \(log)")
        }
        return shader
    }

    /// The driver's message, folded onto one line.
    private static func infoLog(of object: GLuint, isProgram: Bool) -> String {
        var length: GLint = 0
        if isProgram { glFunctions.glGetProgramiv!(object, GLenum(GL_INFO_LOG_LENGTH), &length) } else {
            glFunctions.glGetShaderiv!(object, GLenum(GL_INFO_LOG_LENGTH), &length)
        }
        guard length > 1 else { return "no message from the driver" }
        var buffer = [GLchar](repeating: 0, count: Int(length))
        if isProgram { glFunctions.glGetProgramInfoLog!(object, length, nil, &buffer) } else {
            glFunctions.glGetShaderInfoLog!(object, length, nil, &buffer)
        }
        let text = String(cMessage: buffer)
        return text.split(whereSeparator: \.isNewline).map { $0.trimmingSpaces() }.joined(separator: "; ")
    }
}

private extension Substring {
    func trimmingSpaces() -> Substring {
        drop { $0 == " " }.reversed().drop { $0 == " " }.reversed().reduce(into: Substring()) { $0.append($1) }
    }
}
