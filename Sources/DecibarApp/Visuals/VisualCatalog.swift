import DecibarCore
import DecibarRender
import Synchronization

/// The one place that lists the modes: each picture's type, in `m`'s order. Registering a type
/// makes its mode known everywhere (`--mode`, `ctl`, the keys, the help and the docs), since all
/// of them read `VisualModes`.
public enum VisualCatalog {
    static let builtIn: [any Visual.Type] = [
        LevelBarsVisual.self, SpectrumVisual.self, SpectrogramVisual.self, StereoScopeVisual.self, LevelMeterVisual.self, MilkdropVisual.self,
    ]

    private static let pictures = Mutex<[String: any Visual.Type]>([:])

    /// Registers the built-in modes, once; every way into the application calls it first.
    public static func prepare() { _ = registeredBuiltIn }

    private static let registeredBuiltIn: Void = {
        for type in builtIn { register(type) }
    }()

    /// Adds a mode (at the end of the cycle), or replaces the one of its name.
    static func register(_ type: any Visual.Type) {
        pictures.withLock { $0[type.mode.name] = type }
        VisualModes.register(type.mode)
    }

    /// Takes a registered mode out again (a test's own).
    static func unregister(_ type: any Visual.Type) {
        pictures.withLock { $0[type.mode.name] = nil }
        VisualModes.unregister(named: type.mode.name)
    }

    static func make(_ mode: VisualMode, tools: VisualTools) throws(RenderError) -> any Visual {
        prepare()
        guard let type = pictures.withLock({ $0[mode.rawValue] }) else { throw RenderError("no mode \(mode.rawValue)") }
        return try type.init(tools: tools)
    }
}
