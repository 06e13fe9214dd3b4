/// Where the on-screen display puts things on a picture of a given size: its text size, the
/// lists' width, the controller's bar. One place, for the window that draws them and the tests
/// that read them back.
public enum OnScreenLayout {
    /// Readable from 640x360 up; scaled with the drawable's pixels (HiDPI included).
    public static func textSize(height: Int) -> Int { max(14, min(36, height / 34)) }

    /// The stats' text: smaller, so their panel covers less of the picture.
    public static func smallTextSize(textSize: Int) -> Int { max(12, textSize * 4 / 5) }

    /// A line of text, with its spacing.
    public static func lineHeight(textSize: Int) -> Int { textSize * 3 / 2 }

    /// How wide a list is drawn on a `width`-pixel picture.
    public static func pickerWidth(width: Int, textSize: Int) -> Int { min(width - 2 * textSize, max(textSize * 36, width * 11 / 20)) }

    /// The controller's bar, along the bottom: two lines high.
    public static func controllerHeight(textSize: Int) -> Int { 2 * lineHeight(textSize: textSize) }
}
