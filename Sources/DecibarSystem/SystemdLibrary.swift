import CSystemd
import DecibarCore

/// libsystemd, opened on first use (see CLoader.h).
let systemdLibrary = LoadedLibrary<DecibarSystemd> { decibar_systemd_load($0, $1) }
/// Its functions; reached only once `systemdLibrary` loaded.
var systemdFunctions: DecibarSystemd { systemdLibrary.table! }
