// placeholder until the encoder lands
public enum PNGEncoder {
    public static func encode(rgba pixels: [UInt8], width: Int, height: Int, flipVertically: Bool = false) -> [UInt8] { [] }
}
