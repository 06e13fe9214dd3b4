import CGL
import DecibarCore

/// Draws bars around a circle (`RadialLayout`) in one instanced call: each instance a wedge,
/// filled with the theme's gradient from the inner radius outward, or one color (the peak caps).
public final class RadialBarRenderer {
    private let program: ShaderProgram
    private let instances = InstanceBuffer()
    private var instanceData: [Float] = []
    private let locations: (canvasSize: GLint, center: GLint, inner: GLint, outer: GLint, centerColor: GLint, tipColor: GLint, solid: GLint)

    public init(shaders: ShaderLibrary) throws(RenderError) {
        program = try ShaderProgram(library: shaders, vertex: "radial.vert", fragment: "radial.frag")
        locations = (program.uniformLocation("canvasSize"), program.uniformLocation("center"), program.uniformLocation("inner"),
                     program.uniformLocation("outer"), program.uniformLocation("centerColor"), program.uniformLocation("tipColor"),
                     program.uniformLocation("solid"))
    }

    /// Draws `count` bars whose values `value(i)` gives, laid out by `layout` on the top `height`
    /// pixels of a `width`×`windowHeight` window; with `solid`, every bar in that one color.
    /// With `capThickness`, each bar's cap instead: that thick, just past its tip.
    public func draw(count: Int, value: (Int) -> Float, layout: RadialLayout, width: Int, height: Int, windowHeight: Int,
                     theme: BarTheme, solid: Color? = nil, capThickness: Double? = nil) {
        guard count > 0 else { return }
        instanceData.removeAll(keepingCapacity: true)
        for index in 0 ..< count {
            let bar = layout.bar(index, of: count, value: value(index), width: width, height: height)
            instanceData.append(Float(bar.angle))
            if let capThickness {
                instanceData.append(Float(bar.inner + bar.length + 1))
                instanceData.append(Float(capThickness))
            } else {
                instanceData.append(Float(bar.inner))
                instanceData.append(Float(bar.length))
            }
            instanceData.append(Float(bar.angularWidth))
        }
        let circle = layout.circle(width: width, height: height)
        glFunctions.glViewport!(0, GLint(windowHeight - height), GLsizei(width), GLsizei(height))
        instances.upload(instanceData)
        glFunctions.glUseProgram!(program.handle)
        glFunctions.glUniform2f!(locations.canvasSize, Float(width), Float(height))
        glFunctions.glUniform2f!(locations.center, Float(circle.x), Float(circle.y))
        glFunctions.glUniform1f!(locations.inner, Float(circle.inner))
        glFunctions.glUniform1f!(locations.outer, Float(circle.outer))
        let tip = solid ?? theme.tip
        glFunctions.glUniform4f!(locations.centerColor, theme.center.red, theme.center.green, theme.center.blue, theme.center.alpha)
        glFunctions.glUniform4f!(locations.tipColor, tip.red, tip.green, tip.blue, tip.alpha)
        glFunctions.glUniform1i!(locations.solid, solid == nil ? 0 : 1)
        instances.draw(count: count)
    }
}
