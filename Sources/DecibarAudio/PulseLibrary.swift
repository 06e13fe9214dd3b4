import CPulse
import DecibarCore

/// libpulse, opened on first use (see CLoader.h): commands that never reach a sound server
/// (`ctl`, `config`, `--version`) do not load it.
let pulseLibrary = LoadedLibrary<DecibarPulse> { decibar_pulse_load($0, $1) }
/// Its functions; reached only once `pulseLibrary` loaded.
var pulseFunctions: DecibarPulse { pulseLibrary.table! }
