// CEspeakNG: the espeak-ng speech synthesiser (Debian 12: 1.51) for Swift.
// No shim functions are needed: synthesis runs in ENOUTPUT_MODE_SYNCHRONOUS with a callback.
#ifndef TERN_CESPEAKNG_SHIM_H
#define TERN_CESPEAKNG_SHIM_H
#include <stdio.h>
#include <espeak-ng/speak_lib.h>
#include <espeak-ng/espeak_ng.h>
#endif
