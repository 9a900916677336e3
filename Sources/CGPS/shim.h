// CGPS: libgps (gpsd's client library, Debian 12: 3.22, API 11.0) for Swift.
// Reading needs no C code; the shims exist only where Swift cannot call or see a thing.
#ifndef TERN_CGPS_SHIM_H
#define TERN_CGPS_SHIM_H
#include <gps.h>
#include <errno.h>
#include <math.h>
#include <string.h>

// gps_send() is variadic, which Swift refuses to import; this sends one preformatted command.
static inline int CGPS_send(struct gps_data_t *d, const char *command) { return gps_send(d, "%s", command); }

// errno is a macro over a thread-local; libgps reports connection failures through it
// (negative gpsd codes such as -6, NL_NOCONNECT), so Swift needs to clear and read it directly.
static inline void CGPS_clear_errno(void) { errno = 0; }
static inline int CGPS_errno(void) { return errno; }

// The fix time is a struct timespec; returns it as seconds since the epoch (NaN when unset).
static inline double CGPS_fix_time(const struct gps_data_t *d) {
    if (d->fix.time.tv_sec == 0 && d->fix.time.tv_nsec == 0) return NAN;
    return (double)d->fix.time.tv_sec + (double)d->fix.time.tv_nsec * 1e-9;
}
#endif
