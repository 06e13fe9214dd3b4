/// What a user's shader is told about the frame besides the bars: the clock, the beat, the level
/// and, for a Shadertoy shader, its uniforms and audio texture.
public struct ShaderInputs {
    /// Seconds since the picture started (a render: frame k's k/fps).
    public var time: Double = 0
    /// Seconds since the previous frame.
    public var timeDelta: Double = 0
    /// Frames drawn before this one.
    public var frame: Int = 0
    public var sampleRate: Double = 48000
    /// Shadertoy's iDate: year, month (0-11), day (1-31), seconds into the day.
    public var date: (Float, Float, Float, Float) = (2000, 0, 1, 0)
    /// The beat heard: 1 at a beat, decaying; 0...1 across it; the tempo (0 while none is known).
    public var beat: (level: Float, phase: Float, bpm: Float) = (0, 0, 0)
    /// The bars' mean value, 0...1.
    public var level: Float = 0
    /// Shadertoy's iChannel0: 512 x 2 bytes, row 0 then row 1 (`AudioTexture`); nil leaves it as it was.
    public var audio: [UInt8]?

    public init() {}
}
