// libsystemd: sd_notify (service readiness and status for systemd).
#include <systemd/sd-daemon.h>
