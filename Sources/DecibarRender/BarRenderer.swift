import CGL
import DecibarCore

/// Draws all bars in one instanced call: each instance is one pixel rectangle from `BarLayout`.
public final class BarRenderer {
    private let program: ShaderProgram
    private let instances = InstanceBuffer()
    private var instanceData: [Float] = []
    private let canvasSizeLocation: GLint
    private let baselineLocation: GLint
    private let reachLocation: GLint
    private let centerColorLocation: GLint
    private let tipColorLocation: GLint

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "bars.vert", fragment: "bars.frag")
        canvasSizeLocation = program.uniformLocation("canvasSize")
        baselineLocation = program.uniformLocation("baseline")
        reachLocation = program.uniformLocation("reach")
        centerColorLocation = program.uniformLocation("centerColor")
        tipColorLocation = program.uniformLocation("tipColor")
    }

    /// Fills the whole window with `color`.
    public static func clear(to color: Color) {
        glFunctions.glClearColor!(color.red, color.green, color.blue, color.alpha)
        glFunctions.glClear!(GLbitfield(GL_COLOR_BUFFER_BIT))
    }

    /// Clears to the theme's background and draws `bars` on a `width`×`height` pixel canvas.
    /// With `windowHeight`, the canvas is the top `height` pixels of a window that high, and nothing
    /// is cleared (the caller cleared the window). The gradient runs from `axis.baseline` (canvas
    /// pixels from the top; the middle by default) to `axis.reach` pixels away.
    public func draw(_ bars: [PixelRect], width: Int, height: Int, theme: BarTheme, windowHeight: Int? = nil,
                     axis: (baseline: Double, reach: Double)? = nil) {
        if let windowHeight {
            glFunctions.glViewport!(0, GLint(windowHeight - height), GLsizei(width), GLsizei(height))
        } else {
            glFunctions.glViewport!(0, 0, GLsizei(width), GLsizei(height))
            Self.clear(to: theme.background)
        }
        guard !bars.isEmpty else { return }

        instanceData.removeAll(keepingCapacity: true)
        for bar in bars {
            instanceData.append(Float(bar.x))
            instanceData.append(Float(bar.y))
            instanceData.append(Float(bar.width))
            instanceData.append(Float(bar.height))
        }
        instances.upload(instanceData)

        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform2f!(canvasSizeLocation, Float(width), Float(height))
        let axis = axis ?? (Double(height) / 2, Double(height) / 2)
        glFunctions.glUniform1f!(baselineLocation, Float(axis.baseline))
        glFunctions.glUniform1f!(reachLocation, Float(axis.reach))
        glFunctions.glUniform4f!(centerColorLocation, theme.center.red, theme.center.green, theme.center.blue, theme.center.alpha)
        glFunctions.glUniform4f!(tipColorLocation, theme.tip.red, theme.tip.green, theme.tip.blue, theme.tip.alpha)
        instances.draw(count: bars.count)
    }
}
