/// Settings declared together, beside what uses them: a section's, or a mode's (in its folder).
/// Its rows are its stored `Setting` properties, in the order they are written, so a row is
/// declared once and the schema collects it from there.
public protocol SettingsGroup: Sendable {}

extension SettingsGroup {
    /// Its rows' keys, in the order they are declared.
    public var keys: [ConfigKey] {
        Mirror(reflecting: self).children.compactMap { ($0.value as? any SettingRow)?.key }
    }
}

/// What every row has, whatever the type of its value.
public protocol SettingRow {
    var key: ConfigKey { get }
}

extension Setting: SettingRow {}
