/// A fragment shader as written on shadertoy.com (`void mainImage(out vec4 fragColor, in vec2
/// fragCoord)`, no `#version`, no uniform declarations), made into one Decibar can compile: the
/// version, Shadertoy's uniforms and Decibar's own are declared before it, and a `main` that calls
/// `mainImage` follows it. A `#line` directive before the user's text keeps the compiler's line
/// numbers the user's own.
public enum ShadertoySource {
    /// Whether `source` is written for Shadertoy: it defines `mainImage` and no `main` of its own.
    public static func isShadertoy(_ source: String) -> Bool {
        let code = withoutComments(source)
        return code.contains("mainImage") && !definesMain(code)
    }

    /// The shader to compile, the user's first line being line 1 of the compiler's messages.
    public static func wrap(_ source: String) -> String {
        preamble + "#line 1\n" + source + (source.hasSuffix("\n") ? "" : "\n") + epilogue
    }

    /// Everything a Shadertoy shader may read, declared.
    static let preamble = """
        #version 330 core
        uniform vec3 iResolution;
        uniform float iTime;
        uniform float iTimeDelta;
        uniform int iFrame;
        uniform float iFrameRate;
        uniform float iChannelTime[4];
        uniform vec3 iChannelResolution[4];
        uniform vec4 iMouse;
        uniform vec4 iDate;
        uniform float iSampleRate;
        uniform sampler2D iChannel0;
        uniform sampler2D iChannel1;
        uniform sampler2D iChannel2;
        uniform sampler2D iChannel3;
        uniform sampler2D bars;
        uniform int barCount;
        uniform float u_beat;
        uniform float u_beat_phase;
        uniform float u_bpm;
        uniform float u_level;
        uniform vec4 background;
        uniform vec4 centerColor;
        uniform vec4 tipColor;
        uniform vec2 decibarOrigin;
        out vec4 decibarFragColor;

        """

    /// Shadertoy's canvas is opaque: the alpha a shader writes is not shown.
    static let epilogue = """
        void main() {
            vec4 color = vec4(0.0, 0.0, 0.0, 1.0);
            mainImage(color, gl_FragCoord.xy - decibarOrigin);
            decibarFragColor = vec4(color.rgb, 1.0);
        }

        """

    /// `main` declared as a function: `void main(` with any spacing.
    private static func definesMain(_ code: String) -> Bool {
        let words = code.split { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "(") }
        return zip(words, words.dropFirst()).contains { $0 == "void" && ($1 == "main(" || $1 == "main" || $1.hasPrefix("main(")) }
    }

    /// The source with `//` and `/* */` comments blanked, so a word in a comment does not count.
    static func withoutComments(_ source: String) -> String {
        var result = ""
        result.reserveCapacity(source.utf8.count)
        var iterator = source.makeIterator()
        var pending: Character?
        var inLine = false, inBlock = false
        while let character = pending ?? iterator.next() {
            pending = nil
            if inLine {
                if character == "\n" { inLine = false; result.append(character) }
                continue
            }
            if inBlock {
                if character == "*" {
                    let next = iterator.next()
                    if next == "/" { inBlock = false; result.append(" ") } else { pending = next }
                } else if character == "\n" {
                    result.append(character)
                }
                continue
            }
            if character == "/" {
                let next = iterator.next()
                if next == "/" { inLine = true; continue }
                if next == "*" { inBlock = true; continue }
                result.append(character)
                pending = next
                continue
            }
            result.append(character)
        }
        return result
    }
}
