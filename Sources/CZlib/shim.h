// CZlib: zlib's crc32 for the .tmap section checksums (hardware-friendly and already a dependency
// of libosmium). No shim functions needed.
#ifndef TERN_CZLIB_SHIM_H
#define TERN_CZLIB_SHIM_H
#include <zlib.h>
#endif
