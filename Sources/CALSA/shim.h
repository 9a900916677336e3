// CALSA: alsa-lib (Debian 12: 1.2.8) for Swift.
#ifndef TERN_CALSA_SHIM_H
#define TERN_CALSA_SHIM_H
#include <alsa/asoundlib.h>

// alsa-lib prints "cannot find card '0'" and similar to stderr on every failed open. Its error
// handler type is variadic, which Swift cannot implement, so a C no-op handler silences it; Tern
// reports the one-line error itself ("no sound card ...").
static void CALSA_quiet_handler(const char *file, int line, const char *function, int err, const char *fmt, ...) {
    (void)file; (void)line; (void)function; (void)err; (void)fmt;
}
static inline void CALSA_silence_errors(void) { snd_lib_error_set_handler(CALSA_quiet_handler); }
#endif
