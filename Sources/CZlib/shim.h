#ifndef GENERATE_CZLIB_SHIM_H
#define GENERATE_CZLIB_SHIM_H
#include <zlib.h>

// `deflateInit2` is a macro that passes the library version and the size of
// `z_stream`, which Swift cannot import; this is the same call.
static inline int generate_deflateInit2(z_streamp stream, int level, int windowBits, int memLevel) {
  return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, Z_DEFAULT_STRATEGY);
}

#endif
