// libebur128: EBU R128 / ITU-R BS.1770 loudness and true peak.
#include <ebur128.h>
